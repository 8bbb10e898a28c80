// The members of a zip archive (an .npz), read with a limit on what they may expand to: the sizes the
// central directory declares are checked against the limit before anything is inflated, and deflated
// members are inflated in small steps (fflate's streaming Inflate) with a running count that stops at
// the member's declared size, so a decompression bomb ends within one step whatever its headers claim.
// Every member read is checked against the CRC-32 its central directory entry records.
import { Inflate } from 'fflate';
import { FileError, formatSize } from './table.ts';

export interface ZipMember {
  name: string;
  data: Uint8Array;
}

/** Compressed bytes handed to the inflater at a time: at deflate's best ratio (~1:1032), 16 MB out. */
const STEP = 16 * 1024;
const END_OF_DIRECTORY = 0x06054b50,
  DIRECTORY_ENTRY = 0x02014b50,
  LOCAL_HEADER = 0x04034b50;

interface Entry {
  name: string;
  method: number;
  /** The CRC-32 of the member's uncompressed bytes, as the central directory records it. */
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

/** The central directory's entries (the end record is searched for in the last 64 KB + 22 bytes). */
function directory(bytes: Uint8Array, view: DataView, fileName: string): Entry[] {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new FileError(fileName, 'not a complete zip archive (no end of central directory)');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: Entry[] = [];
  const decoder = new TextDecoder();
  for (let k = 0; k < count; k++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== DIRECTORY_ENTRY) {
      throw new FileError(fileName, `zip directory entry ${k} is damaged`);
    }
    const nameLength = view.getUint16(at + 28, true),
      extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) throw new FileError(fileName, `zip directory entry ${k} is damaged`);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressedSize: view.getUint32(at + 20, true),
      // 0xFFFFFFFF marks a zip64 size, 4 GB or more: more than any limit here, so taken as it reads.
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as zip, zlib and gzip compute it. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const hex = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;

/** `data` (raw deflate) inflated, calling `fail` as soon as the output passes `limit` bytes. */
function inflateLimited(data: Uint8Array, limit: number, fail: () => never): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > limit) fail();
    chunks.push(chunk);
  });
  for (let at = 0; at < data.length; at += STEP) inflater.push(data.subarray(at, at + STEP), at + STEP >= data.length);
  if (data.length === 0) inflater.push(data, true);
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/**
 * The members whose names pass `keep`, stored or deflated, together expanding to at most `limit`
 * bytes. Errors name the archive, the member and the problem.
 */
export function readZipMembers(
  bytes: Uint8Array,
  fileName: string,
  keep: (name: string) => boolean,
  limit: number,
): ZipMember[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = directory(bytes, view, fileName).filter((e) => keep(e.name));
  // Two members of one name: which is the array depends on the reader (Python's zipfile warns of it).
  const names = new Set<string>();
  for (const e of entries) {
    if (names.has(e.name))
      throw new FileError(fileName, `member '${e.name}' appears twice in the archive's directory; which one is meant?`);
    names.add(e.name);
  }
  const declared = entries.reduce((sum, e) => sum + e.size, 0);
  if (declared > limit) {
    const largest = entries.reduce((a, b) => (b.size > a.size ? b : a));
    throw new FileError(
      fileName,
      `its members declare ${formatSize(declared)} uncompressed ('${largest.name}' ${formatSize(largest.size)}); gpprobe reads at most ${formatSize(limit)}`,
    );
  }
  return entries.map((e) => {
    const at = e.localOffset;
    if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL_HEADER) {
      throw new FileError(fileName, `member '${e.name}' has no local header where the directory says`);
    }
    const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
    if (start + e.compressedSize > bytes.length) throw new FileError(fileName, `member '${e.name}' is truncated`);
    const raw = bytes.subarray(start, start + e.compressedSize);
    // The declared sizes passed the limit together, so each member may expand to its own and no more.
    const overflow = (): never => {
      throw new FileError(
        fileName,
        `member '${e.name}' expands past the ${e.size} bytes it declares (a decompression bomb or a damaged archive)`,
      );
    };
    let data: Uint8Array;
    if (e.method === 0) data = raw;
    else if (e.method === 8) {
      try {
        data = inflateLimited(raw, e.size, overflow);
      } catch (error) {
        if (error instanceof FileError) throw error;
        throw new FileError(fileName, `member '${e.name}' cannot be inflated (${(error as Error).message})`);
      }
    } else
      throw new FileError(
        fileName,
        `member '${e.name}' uses zip compression method ${e.method}; .npz files are stored or deflated`,
      );
    if (data.length !== e.size) {
      throw new FileError(fileName, `member '${e.name}' holds ${data.length} bytes, its header says ${e.size}`);
    }
    // The central directory's CRC-32 is the one checked (as Python's zipfile checks it): a local header
    // may hold zeros there, and a member written with a data descriptor (flag bit 3) always does.
    const crc = crc32(data);
    if (crc !== e.crc) {
      throw new FileError(
        fileName,
        `member '${e.name}' fails its CRC-32 check: the archive's directory records ${hex(e.crc)}, its ${data.length} bytes give ${hex(crc)} (the archive is damaged)`,
      );
    }
    return { name: e.name, data };
  });
}
