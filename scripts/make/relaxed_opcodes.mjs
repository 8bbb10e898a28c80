// Gives a wasm module built with -mrelaxed-simd the relaxed SIMD opcodes browsers run.
//
// Debian's toolchain (clang 14, binaryen 108, under Emscripten 3.1.6) emits the relaxed fused multiply-add
// of the proposal's prototype: f32x4.fma as 0xfd 0xaf 0x01 and f64x2.fma as 0xfd 0xcf 0x01. The proposal
// as shipped (Chromium 114+, Node 22+, Node 20 with --experimental-wasm-relaxed-simd) numbers them
// f32x4.relaxed_madd = 0x105 and f64x2.relaxed_madd = 0x107, with the same operands and meaning a * b + c
// (fused or not, the engine's choice; fused on x86 with FMA3 and on ARM). Both encodings are three bytes,
// so the rewrite changes bytes in place and no size or offset moves.
//
// It decodes every instruction of every function body (never a blind byte search: the same bytes occur
// in constants, memory offsets and data), rewrites those two opcodes and refuses any other prototype
// relaxed opcode (fms, laneselect, ...) or an opcode it does not know, naming the function and offset.
//
//   node scripts/make/relaxed_opcodes.mjs MODULE.wasm [--glue TWIN.mjs PLAIN.mjs]
//     rewrites in place and prints how many were rewritten; with --glue, also fails unless the twin's JS
//     equals the plain module's but for the module's name
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Prototype SIMD sub-opcode -> shipped sub-opcode. */
export const RELAXED_RENUMBERING = new Map([
  [0xaf, 0x105], // f32x4.fma -> f32x4.relaxed_madd
  [0xcf, 0x107], // f64x2.fma -> f64x2.relaxed_madd
]);

// Sub-opcodes of the prototype's other relaxed instructions (clang 14 / binaryen 108 numbering) that
// have no shipped equivalent with the same operands: refused, not guessed.
const PROTOTYPE_RELAXED = new Map([
  [0xa2, 'i8x16.relaxed_swizzle'],
  [0xa5, 'i32x4.relaxed_trunc_f32x4_s'],
  [0xa6, 'i32x4.relaxed_trunc_f32x4_u'],
  [0xc5, 'i32x4.relaxed_trunc_f64x2_s_zero'],
  [0xc6, 'i32x4.relaxed_trunc_f64x2_u_zero'],
  [0xb0, 'f32x4.fms'],
  [0xd0, 'f64x2.fms'],
  [0xb2, 'i8x16.laneselect'],
  [0xb3, 'i16x8.laneselect'],
  [0xd2, 'i32x4.laneselect'],
  [0xd3, 'i64x2.laneselect'],
  [0xb4, 'f32x4.relaxed_min'],
  [0xe2, 'f32x4.relaxed_max'],
  [0xd4, 'f64x2.relaxed_min'],
  [0xee, 'f64x2.relaxed_max'],
]);

const VALUE_TYPES = new Set([0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);

class Reader {
  constructor(bytes, position, end) {
    this.bytes = bytes;
    this.position = position;
    this.end = end;
  }

  byte() {
    if (this.position >= this.end) throw new Error(`unexpected end at byte ${this.position}`);
    return this.bytes[this.position++];
  }

  /** An unsigned or signed LEB128 number's value (unsigned), skipping it. */
  leb() {
    let value = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      value += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) return value;
    }
  }

  skip(count) {
    if (this.position + count > this.end) throw new Error(`unexpected end at byte ${this.position}`);
    this.position += count;
  }

  memarg() {
    this.leb();
    this.leb();
  }
}

// One instruction after its opcode byte: its immediates skipped; SIMD sub-opcodes come back for the rewrite.
function skipImmediates(reader, opcode) {
  if (
    opcode <= 0x01 ||
    opcode === 0x05 ||
    opcode === 0x0b ||
    opcode === 0x0f ||
    opcode === 0x19 ||
    opcode === 0x1a ||
    opcode === 0x1b ||
    opcode === 0xd1 ||
    (opcode >= 0x45 && opcode <= 0xc4)
  )
    return;
  switch (opcode) {
    case 0x02:
    case 0x03:
    case 0x04:
    case 0x06: {
      // block, loop, if, try: a block type
      const b = reader.bytes[reader.position];
      if (b === 0x40 || VALUE_TYPES.has(b)) reader.skip(1);
      else reader.leb();
      return;
    }
    case 0x07:
    case 0x08:
    case 0x09:
    case 0x18: // catch, throw, rethrow, delegate
    case 0x0c:
    case 0x0d:
    case 0x10:
    case 0x12: // br, br_if, call, return_call
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
    case 0x25:
    case 0x26: // locals, globals, tables
    case 0x3f:
    case 0x40:
    case 0xd2: // memory.size, memory.grow, ref.func
      reader.leb();
      return;
    case 0x0e: {
      // br_table
      const count = reader.leb();
      for (let i = 0; i <= count; ++i) reader.leb();
      return;
    }
    case 0x11:
    case 0x13: // call_indirect, return_call_indirect
      reader.leb();
      reader.leb();
      return;
    case 0x1c: {
      // select with types
      const count = reader.leb();
      reader.skip(count);
      return;
    }
    case 0x41:
    case 0x42:
      reader.leb();
      return; // i32.const, i64.const
    case 0x43:
      reader.skip(4);
      return;
    case 0x44:
      reader.skip(8);
      return;
    case 0xd0:
      reader.skip(1);
      return; // ref.null
    default:
      if (opcode >= 0x28 && opcode <= 0x3e) {
        // loads and stores
        reader.memarg();
        return;
      }
      throw new Error(`unknown opcode 0x${opcode.toString(16)}`);
  }
}

function skipMiscImmediates(reader) {
  const sub = reader.leb();
  if (sub <= 7) return;
  if (sub === 8 || sub === 10 || sub === 12 || sub === 14) {
    reader.leb();
    reader.leb();
    return;
  }
  if (sub === 9 || sub === 11 || sub === 13 || (sub >= 15 && sub <= 17)) {
    reader.leb();
    return;
  }
  throw new Error(`unknown opcode 0xfc ${sub}`);
}

function skipAtomicImmediates(reader) {
  const sub = reader.leb();
  if (sub === 0x03)
    reader.skip(1); // atomic.fence
  else reader.memarg();
}

/**
 * Rewrites the prototype relaxed fused multiply-adds of a module's code section in place.
 * Returns { f32x4, f64x2, shipped }: how many of each were rewritten, and how many shipped relaxed
 * instructions were there already (a module rewritten before: running twice is harmless). Throws on
 * malformed input, on an unknown opcode and on a prototype relaxed instruction other than the two
 * multiply-adds.
 */
export function rewriteRelaxedOpcodes(bytes) {
  if (bytes.length < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new Error('not a WebAssembly module (no \\0asm header)');
  }
  const counts = { f32x4: 0, f64x2: 0, shipped: 0 };
  const top = new Reader(bytes, 8, bytes.length);
  while (top.position < bytes.length) {
    const id = top.byte();
    const size = top.leb();
    const start = top.position;
    top.skip(size);
    if (id !== 10) continue; // only the code section holds instructions
    const section = new Reader(bytes, start, start + size);
    const functions = section.leb();
    for (let f = 0; f < functions; ++f) {
      const bodySize = section.leb();
      const body = new Reader(bytes, section.position, section.position + bodySize);
      section.skip(bodySize);
      const localGroups = body.leb();
      for (let g = 0; g < localGroups; ++g) {
        body.leb();
        body.skip(1);
      }
      try {
        while (body.position < body.end) {
          const opcode = body.byte();
          if (opcode === 0xfc) skipMiscImmediates(body);
          else if (opcode === 0xfe) skipAtomicImmediates(body);
          else if (opcode === 0xfd) rewriteSimd(body, counts);
          else skipImmediates(body, opcode);
        }
      } catch (error) {
        throw new Error(`function body ${f} (byte ${body.position}): ${error.message}`);
      }
    }
  }
  return counts;
}

function rewriteSimd(reader, counts) {
  const at = reader.position;
  const sub = reader.leb();
  const shipped = RELAXED_RENUMBERING.get(sub);
  if (shipped !== undefined) {
    if (reader.position - at !== 2) throw new Error(`non-canonical encoding of SIMD opcode 0x${sub.toString(16)}`);
    reader.bytes[at] = 0x80 | (shipped & 0x7f);
    reader.bytes[at + 1] = shipped >> 7;
    if (sub === 0xaf) counts.f32x4 += 1;
    else counts.f64x2 += 1;
    return;
  }
  if (PROTOTYPE_RELAXED.has(sub)) {
    throw new Error(`prototype relaxed SIMD ${PROTOTYPE_RELAXED.get(sub)} (0xfd 0x${sub.toString(16)}) has no rewrite`);
  }
  if (sub <= 11 || sub === 92 || sub === 93)
    reader.memarg(); // loads, store, load_zero
  else if (sub === 12 || sub === 13)
    reader.skip(16); // v128.const, i8x16.shuffle
  else if (sub >= 21 && sub <= 34)
    reader.skip(1); // extract_lane, replace_lane
  else if (sub >= 84 && sub <= 91) {
    reader.memarg();
    reader.skip(1);
  } // load_lane, store_lane
  else if (sub >= 0x100 && sub <= 0x113)
    counts.shipped += 1; // shipped relaxed SIMD (a module rewritten before)
  else if (sub > 0xff) throw new Error(`unknown SIMD opcode 0x${sub.toString(16)}`);
}

function main() {
  const [path, flag, twinGlue, plainGlue] = process.argv.slice(2);
  if (!path || (flag !== undefined && (flag !== '--glue' || !plainGlue))) {
    console.error('usage: node scripts/make/relaxed_opcodes.mjs MODULE.wasm [--glue TWIN.mjs PLAIN.mjs]');
    process.exit(2);
  }
  const bytes = new Uint8Array(readFileSync(path));
  let counts;
  try {
    counts = rewriteRelaxedOpcodes(bytes);
  } catch (error) {
    console.error(`${path}: ${error.message}`);
    process.exit(1);
  }
  if (counts.f32x4 + counts.f64x2 === 0 && counts.shipped > 0) {
    console.log(`${path}: already has the shipped relaxed opcodes (${counts.shipped}); left as it is`);
    return;
  }
  if (counts.f32x4 + counts.f64x2 === 0) {
    console.error(
      `${path}: no relaxed multiply-add found (was it compiled with -mrelaxed-simd and GPPROBE_RELAXED_SIMD?)`,
    );
    process.exit(1);
  }
  if (plainGlue) {
    const name = (file) => basename(file, '.mjs');
    const twin = readFileSync(twinGlue, 'utf8').split(name(twinGlue)).join(name(plainGlue));
    const plain = readFileSync(plainGlue, 'utf8');
    if (twin !== plain) {
      let at = 0;
      while (twin[at] === plain[at]) at += 1;
      console.error(
        `${twinGlue} differs from ${plainGlue} beyond the module's name (at character ${at}: ` +
          `${JSON.stringify(twin.slice(at - 40, at + 40))} vs ${JSON.stringify(plain.slice(at - 40, at + 40))}): ` +
          `the loader cannot run ${path} with ${plainGlue}'s JS`,
      );
      process.exit(1);
    }
  }
  writeFileSync(path, bytes);
  console.log(`${path}: ${counts.f64x2} f64x2 and ${counts.f32x4} f32x4 multiply-adds given their shipped opcodes`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
