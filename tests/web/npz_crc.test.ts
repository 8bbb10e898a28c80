// .npz members are checked against their CRC-32 (issue 40 item 2), as Python's zipfile.testzip() checks
// them: the archives of tests/reference/npz/crc/ are written byte by byte by
// scripts/fixtures/make_npz_crc_fixtures.py, which records in expected.json the CRC-32 of each member's
// bytes by Python's zlib.crc32 and what testzip() says of each archive. A flipped data bit is refused,
// naming the member and both CRCs, by every reader that takes .npz (the Probe tab's and the Compare
// lab's), whether the member is stored or deflated, its local header's CRC zeroed, or its CRC in a data
// descriptor; intact archives read the values written.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFile } from '../../web/src/io/load_files.ts';
import { npzArrays, parseNpz } from '../../web/src/io/npz.ts';
import { crc32 } from '../../web/src/io/zip_members.ts';

const DIR = 'tests/reference/npz/crc';
const expected: Record<
  string,
  { member: string; size: number; directory_crc: string; data_crc: string; python_testzip: string | null }
> = JSON.parse(readFileSync(`${DIR}/expected.json`, 'utf8'));
const bytes = (name: string) => new Uint8Array(readFileSync(`${DIR}/${name}`));

describe('.npz members are checked against their CRC-32', () => {
  const flipped = Object.keys(expected).filter((name) => name.startsWith('flipped'));
  const intact = Object.keys(expected).filter((name) => name.startsWith('intact'));

  it('the fixtures cover a stored, a deflated, a zeroed local header and a data descriptor member', () => {
    expect(flipped.sort()).toEqual([
      'flipped_deflated.npz',
      'flipped_descriptor.npz',
      'flipped_local_crc_zero.npz',
      'flipped_stored.npz',
    ]);
    for (const name of flipped) expect(expected[name].python_testzip, name).toBe('x.npy');
    for (const name of intact) expect(expected[name].python_testzip, name).toBeNull();
  });

  for (const name of [
    'flipped_stored.npz',
    'flipped_deflated.npz',
    'flipped_local_crc_zero.npz',
    'flipped_descriptor.npz',
  ]) {
    it(`${name}: one flipped data bit is refused, naming the member and both CRCs, by every reader`, async () => {
      const e = expected[name];
      const message = `${name}: member '${e.member}' fails its CRC-32 check: the archive's directory records ${e.directory_crc}, its ${e.size} bytes give ${e.data_crc} (the archive is damaged)`;
      expect(() => parseNpz(bytes(name), name)).toThrow(message);
      expect(() => npzArrays(bytes(name), name)).toThrow(message);
      await expect(parseFile(new Blob([bytes(name)]), name)).rejects.toThrow(message);
    });
  }

  for (const name of ['intact.npz', 'intact_descriptor.npz', 'intact_local_crc_zero.npz']) {
    it(`${name}: an intact member reads the values written (as Python reads it)`, () => {
      const [a] = npzArrays(bytes(name), name);
      expect(a.shape).toEqual([3, 2]);
      expect(Array.from(a.data)).toEqual([0.5, -1.0, 2.0, 3.25, -0.125, 4.0]);
    });
  }

  it("computes the CRC-32 Python's zlib.crc32 computes", () => {
    // zlib.crc32(b"123456789") = 0xcbf43926 (the standard check value); zlib.crc32(b"") = 0.
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    // The bytes of the fixtures' member, by the generator's zlib.crc32.
    const member = bytes('intact.npz').subarray(30 + 'x.npy'.length, 30 + 'x.npy'.length + expected['intact.npz'].size);
    expect(`0x${crc32(member).toString(16).padStart(8, '0')}`).toBe(expected['intact.npz'].directory_crc);
  });
});
