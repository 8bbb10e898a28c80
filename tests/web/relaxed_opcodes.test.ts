// scripts/make/relaxed_opcodes.mjs: the build step that gives the relaxed twins the shipped relaxed-SIMD
// opcodes. Modules are assembled here byte by byte; Vitest runs Node with --experimental-wasm-relaxed-simd
// (vitest.config.ts), so the rewritten modules are validated and run.
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script, without declarations
import { rewriteRelaxedOpcodes } from '../../scripts/make/relaxed_opcodes.mjs';

const rewrite = rewriteRelaxedOpcodes as (bytes: Uint8Array) => { f32x4: number; f64x2: number; shipped: number };

function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

const F64 = 0x7c,
  F32 = 0x7d,
  V128 = 0x7b;

/** A module of functions (f64 f64 f64) -> f64 or (f32 f32 f32) -> f32, exported as f0, f1, ..., with one memory page. */
function assemble(bodies: { type: 0 | 1 | 2; code: number[] }[]): Uint8Array<ArrayBuffer> {
  const types = [
    0x03,
    0x60,
    0x03,
    F64,
    F64,
    F64,
    0x01,
    F64,
    0x60,
    0x03,
    F32,
    F32,
    F32,
    0x01,
    F32,
    0x60,
    0x00,
    0x01,
    V128,
  ];
  const functions = [bodies.length, ...bodies.map((b) => b.type)];
  const exports = [bodies.length, ...bodies.flatMap((_, i) => [0x02, 0x66, 0x30 + i, 0x00, i])];
  const code = [
    bodies.length,
    ...bodies.flatMap((b) => {
      const body = [0x00, ...b.code, 0x0b]; // no locals, the instructions, end
      return [...leb(body.length), ...body];
    }),
  ];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, types),
    ...section(3, functions),
    ...section(5, [0x01, 0x00, 0x01]),
    ...section(7, exports),
    ...section(10, code),
  ]);
}

// a b c splatted, the prototype fused multiply-add, lane 0 out.
const F64X2_FMA = [
  0x20, 0x00, 0xfd, 0x14, 0x20, 0x01, 0xfd, 0x14, 0x20, 0x02, 0xfd, 0x14, 0xfd, 0xcf, 0x01, 0xfd, 0x21, 0x00,
];
const F32X4_FMA = [
  0x20, 0x00, 0xfd, 0x13, 0x20, 0x01, 0xfd, 0x13, 0x20, 0x02, 0xfd, 0x13, 0xfd, 0xaf, 0x01, 0xfd, 0x1f, 0x00,
];
// The same three bytes as immediates, never instructions: i32.const 22525 (LEB fd af 01), a v128.const
// holding fd af 01 fd cf 01, a v128.load at offset 22525.
const DECOY = [
  0x41, 0xfd, 0xaf, 0x01, 0x1a, 0xfd, 0x0c, 0xfd, 0xaf, 0x01, 0xfd, 0xcf, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1a,
  0x41, 0x00, 0xfd, 0x00, 0x04, 0xfd, 0xaf, 0x01,
];

async function exportsOf(bytes: Uint8Array<ArrayBuffer>): Promise<Record<string, (...args: number[]) => number>> {
  const { instance } = await WebAssembly.instantiate(bytes);
  return instance.exports as Record<string, (...args: number[]) => number>;
}

describe('relaxed_opcodes: prototype fused multiply-adds to the shipped relaxed_madd', () => {
  it('rewrites f32x4.fma and f64x2.fma in place and the module then computes a * b + c', async () => {
    const bytes = assemble([
      { type: 0, code: F64X2_FMA },
      { type: 1, code: F32X4_FMA },
      { type: 2, code: DECOY },
    ]);
    expect(WebAssembly.validate(bytes)).toBe(false); // the prototype opcodes no engine ships
    const length = bytes.length;
    expect(rewrite(bytes)).toEqual({ f32x4: 1, f64x2: 1, shipped: 0 });
    expect(bytes.length).toBe(length);
    // A second run finds the shipped opcodes and changes nothing.
    const once = Uint8Array.from(bytes);
    expect(rewrite(bytes)).toEqual({ f32x4: 0, f64x2: 0, shipped: 2 });
    expect(bytes).toEqual(once);
    expect(WebAssembly.validate(bytes)).toBe(true);
    const { f0, f1 } = await exportsOf(bytes);
    expect(f0(2, 3, 5)).toBe(11); // a * b + c, not a + b * c (17) or c - a * b (-1)
    expect(f1(2, 3, 5)).toBe(11);
    expect(f0(-1.5, 4, 0.25)).toBe(-5.75);
    // (1 + 2^-30)(1 - 2^-30) - 1: -2^-60 fused (one rounding), 0 when the product rounds first.
    expect([-(2 ** -60), 0]).toContain(f0(1 + 2 ** -30, 1 - 2 ** -30, -1));
  });

  it('leaves the same bytes alone where they are immediates: constants, v128 constants, memory offsets', () => {
    const bytes = assemble([{ type: 2, code: DECOY }]);
    const before = Uint8Array.from(bytes);
    expect(rewrite(bytes)).toEqual({ f32x4: 0, f64x2: 0, shipped: 0 });
    expect(bytes).toEqual(before);
    expect(WebAssembly.validate(bytes)).toBe(true);
  });

  it('refuses the prototype relaxed instructions it has no rewrite for, naming the function', () => {
    const fms = F64X2_FMA.slice();
    fms[13] = 0xd0; // f64x2.fms: c - a * b in the prototype, not the shipped nmadd's operand order
    expect(() =>
      rewrite(
        assemble([
          { type: 0, code: F64X2_FMA },
          { type: 0, code: fms },
        ]),
      ),
    ).toThrow(/function body 1 .*prototype relaxed SIMD f64x2\.fms/);
  });

  it('refuses opcodes it does not know and input that is not a module', () => {
    expect(() => rewrite(assemble([{ type: 0, code: [0xc5] }]))).toThrow(/function body 0 .*unknown opcode 0xc5/);
    expect(() => rewrite(Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d, 0x0a]))).toThrow(
      /not a WebAssembly module/,
    );
    const cut = assemble([{ type: 0, code: F64X2_FMA }]);
    cut[cut.length - 4] = 0x20; // a local.get whose index runs past the body's end
    expect(() => rewrite(cut.subarray(0, cut.length - 2))).toThrow(/unexpected end/);
  });
});
