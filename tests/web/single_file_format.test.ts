// The one-file data block (docs/embed.md, "One file") against bytes written by hand: a zlib stream of
// one stored block whose Adler-32 is computed here from its definition (RFC 1950), the header's bytes
// laid out as the documentation says; the encoder's output read back by Node's zlib, not by our decoder.
import { randomBytes } from 'node:crypto';
import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  DATA_BLOCK_MARKER,
  decodeDataBlock,
  encodeDataBlock,
  fillTemplate,
  ONE_FILE_LIMITS,
  OneFileError,
} from '../../web/src/single/one_file_format.ts';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Adler-32 by its definition: A = 1 + sum of bytes, B = sum of the A's, both mod 65521; B·65536 + A. */
function adler32(bytes: Uint8Array): number {
  let a = 1,
    b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return (b * 65536 + a) >>> 0;
}

/** A zlib stream (RFC 1950) holding `data` as one stored deflate block (RFC 1951 section 3.2.4). */
function storedZlib(data: Uint8Array): Uint8Array {
  const out: number[] = [0x78, 0x01, 0x01, data.length & 0xff, data.length >> 8];
  const nlen = ~data.length & 0xffff;
  out.push(nlen & 0xff, nlen >> 8, ...data);
  const adler = adler32(data);
  out.push(adler >>> 24, (adler >>> 16) & 0xff, (adler >>> 8) & 0xff, adler & 0xff);
  return Uint8Array.from(out);
}

/** "GPPROBE" 0x01, the header's length (u32 LE), the header, then the compressed files. */
function block(header: unknown, compressed: Uint8Array, magic = ascii('GPPROBE\x01')): string {
  const json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  const length = [json.length & 0xff, (json.length >> 8) & 0xff, (json.length >> 16) & 0xff, json.length >>> 24];
  return Buffer.from(Uint8Array.from([...magic, ...length, ...json, ...compressed])).toString('base64');
}

const META = 'label\n1\n0\n';
// A 2 × 2 float32 .npy: magic, version 1.0, header length 118 (padded so the data starts at 128).
const npyHeader = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
const NPY = Uint8Array.from([
  ...ascii('\x93NUMPY\x01\x00'),
  118,
  0,
  ...ascii(npyHeader.padEnd(117, ' ') + '\n'),
  ...new Uint8Array(Float32Array.of(0.5, -1, 2, 0.25).buffer),
]);
const HEADER = {
  format: 'gpprobe-one-file',
  version: 1,
  files: [
    { name: 'emb.npy', size: NPY.length, role: 'main' },
    { name: 'meta.csv', size: META.length, role: 'main' },
  ],
  state: { v: 1, concept: { column: 'label', kind: 'values', positives: ['1'] }, rows: [0, 1] },
};
const PAYLOAD = Uint8Array.from([...NPY, ...ascii(META)]);

describe('one-file data block', () => {
  it('reads a block written by hand', async () => {
    expect(NPY.length).toBe(128 + 16);
    const content = await decodeDataBlock(`\n  ${block(HEADER, storedZlib(PAYLOAD))}\n`);
    expect(content.header).toEqual(HEADER);
    expect(content.files.map((f) => [f.name, f.role, f.bytes.length])).toEqual([
      ['emb.npy', 'main', 144],
      ['meta.csv', 'main', 10],
    ]);
    expect(Array.from(new Float32Array(content.files[0].bytes.slice(128).buffer))).toEqual([0.5, -1, 2, 0.25]);
    expect(new TextDecoder().decode(content.files[1].bytes)).toBe(META);
  });

  it('reads a block of many base64 chunks, its header longer than one (compressed by Node zlib)', async () => {
    const data = Uint8Array.from([...randomBytes(700_000), ...new Uint8Array(300_000).fill(7)]);
    const header = {
      ...HEADER,
      files: [
        { name: 'a.bin', size: 400_000, role: 'main' },
        { name: 'b.bin', size: 0, role: 'main' },
        { name: 'c.bin', size: 600_000, role: 'ood' },
      ],
      state: { v: 1, rows: Array.from({ length: 60_000 }, (_, i) => i) },
    };
    const text = block(header, deflateSync(data, { level: 1 }));
    expect(text.length).toBeGreaterThan(5 * 4 * 2 ** 16);
    const content = await decodeDataBlock(text);
    expect(content.header.state).toEqual(header.state);
    expect(content.files.map((f) => f.bytes.length)).toEqual([400_000, 0, 600_000]);
    expect(Buffer.concat(content.files.map((f) => f.bytes)).equals(Buffer.from(data))).toBe(true);
    const bomb = block({ ...header, files: header.files.slice(0, 1) }, deflateSync(data));
    await expect(decodeDataBlock(bomb)).rejects.toThrow(/more than the 400,000 bytes/);
    const damaged = text.slice(0, 600_000) + (text[600_000] === 'A' ? 'B' : 'A') + text.slice(600_001);
    await expect(decodeDataBlock(damaged)).rejects.toThrow(OneFileError);
    const notBase64 = text.slice(0, 600_000) + '*' + text.slice(600_001);
    await expect(decodeDataBlock(notBase64)).rejects.toThrow(/not base64/);
  });

  it('writes the documented layout (read back by Node zlib)', async () => {
    const text = await encodeDataBlock(
      [
        { name: 'emb.npy', role: 'main', bytes: NPY },
        { name: 'meta.csv', role: 'main', bytes: ascii(META) },
      ],
      { state: HEADER.state, title: 'digits' },
    );
    expect(text).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(text, 'base64');
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x47, 0x50, 0x50, 0x52, 0x4f, 0x42, 0x45, 0x01]);
    const length = bytes.readUInt32LE(8);
    expect(JSON.parse(bytes.subarray(12, 12 + length).toString('utf8'))).toEqual({ ...HEADER, title: 'digits' });
    expect(Array.from(inflateSync(bytes.subarray(12 + length)))).toEqual(Array.from(PAYLOAD));
  });

  it('fills the template once', () => {
    const template = `<p>a</p>${DATA_BLOCK_MARKER}<p>b</p>`;
    expect(fillTemplate(template, 'QUJD')).toBe(
      '<p>a</p><script type="application/octet-stream" id="gpprobe-data">QUJD</script><p>b</p>',
    );
    expect(() => fillTemplate('<p>no block</p>', 'QUJD')).toThrow(OneFileError);
    expect(() => fillTemplate(template + template, 'QUJD')).toThrow(/exactly once/);
  });

  const good = storedZlib(PAYLOAD);
  const refused: [string, () => string, RegExp][] = [
    ['the empty template', () => '', /is empty/],
    ['text that is not base64', () => 'R1BQ*k9CRQE=', /not base64/],
    ['base64 cut off mid-quad', () => block(HEADER, good).slice(0, -3), /not a multiple of 4/],
    ['another format', () => block(HEADER, good, ascii('PK\x03\x04....')), /not gpprobe's/],
    ['a newer version', () => block(HEADER, good, ascii('GPPROBE\x02')), /format version 2/],
    ['a header that is not JSON', () => block('{"format":', good), /not UTF-8 JSON/],
    ['a header of another format', () => block({ ...HEADER, format: 'x' }, good), /not written by gpprobe/],
    [
      'a header cut off',
      () => Buffer.from(Buffer.from(block(HEADER, good), 'base64').subarray(0, 40)).toString('base64'),
      /cut off/,
    ],
    [
      'compressed data cut off',
      () => Buffer.from(Buffer.from(block(HEADER, good), 'base64').subarray(0, -6)).toString('base64'),
      /damaged or cut off/,
    ],
    ['compressed data that is not zlib', () => block(HEADER, ascii('not zlib at all')), /does not inflate/],
    [
      'fewer bytes than declared',
      () => block(HEADER, storedZlib(PAYLOAD.subarray(0, PAYLOAD.length - 3))),
      /holds 151 bytes, its header declares 154/,
    ],
    [
      'more bytes than declared (a bomb)',
      () => block(HEADER, storedZlib(Uint8Array.from([...PAYLOAD, 1, 2, 3]))),
      /more than the 154 bytes/,
    ],
    [
      'a file named twice',
      () => block({ ...HEADER, files: [HEADER.files[0], HEADER.files[0]] }, good),
      /is there twice/,
    ],
    [
      'a path for a name',
      () => block({ ...HEADER, files: [{ ...HEADER.files[0], name: '../emb.npy' }] }, good),
      /without \//,
    ],
    [
      'files beyond the limit',
      () =>
        block({ ...HEADER, files: [{ name: 'emb.npy', size: ONE_FILE_LIMITS.filesBytes + 1, role: 'main' }] }, good),
      /at most 256 MiB \(268,435,456 bytes\)/,
    ],
    [
      'no main file',
      () => block({ ...HEADER, files: [{ ...HEADER.files[0], role: 'ood' }] }, good),
      /no file of role "main"/,
    ],
  ];
  for (const [what, make, message] of refused) {
    it(`refuses ${what}`, async () => {
      const error = await decodeDataBlock(make()).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OneFileError);
      expect((error as Error).message).toMatch(message);
    });
  }
});
