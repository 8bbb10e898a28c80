// Parquet files whose row counts disagree (issue 35 item 2, issue 40 item 5), made by
// scripts/fixtures/make_parquet_lies.mjs from hyparquet-writer's output with the footer's counts (or a
// page header's) changed: every reader that takes Parquet — the Probe tab's (an upload, bytes in memory),
// a URL's (HTTP range requests), the Compare lab's (every vector column, from a Blob) — refuses each,
// naming the file and the counts that disagree, and reads honest files, one or many row groups, value
// for value.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIES, parquetLie } from '../../scripts/fixtures/make_parquet_lies.mjs';
import { parseFile } from '../../web/src/io/load_files.ts';
import { blobBuffer, parquetMatrices, readParquetMatrices } from '../../web/src/io/multi_arrays.ts';
import { readParquet } from '../../web/src/io/parquet.ts';
import { readParquetOverHttp } from '../../web/src/io/parquet_over_http.ts';
import type { ParsedFile } from '../../web/src/io/table.ts';
import type { NamedArray } from '../../web/src/io/arrays.ts';

const copy = (bytes: Uint8Array) => bytes.slice().buffer as ArrayBuffer;
const URL_ = 'https://data.example/t/lie.parquet';

/** A data host serving `bytes` at URL_ (HEAD, and GET by Range), as hyparquet's range reader asks. */
function host(bytes: Uint8Array): void {
  vi.stubGlobal('fetch', async (_input: string, init: RequestInit = {}) => {
    if ((init.method ?? 'GET') === 'HEAD')
      return new Response(null, { headers: { 'content-length': String(bytes.byteLength) } });
    const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init.headers).get('range')!)!;
    const body = bytes.slice(Number(a), Number(b) + 1);
    return new Response(body, { status: 206, headers: { 'content-length': String(body.byteLength) } });
  });
}

/** Every path by which a Parquet file reaches gpprobe, each reading `bytes` as `name`. */
function readers(bytes: Uint8Array, name: string): Record<string, () => Promise<ParsedFile | NamedArray[]>> {
  return {
    'Probe upload (parseFile)': () => parseFile(new Blob([copy(bytes)]), name),
    'whole file (readParquet)': () => readParquet(copy(bytes), name),
    'over HTTP ranges': async () => {
      host(bytes);
      return (await readParquetOverHttp(URL_, name)).parsed;
    },
    'Compare lab (readParquetMatrices of a Blob)': () => readParquetMatrices(new Blob([copy(bytes)]), name),
    'Compare parse worker (parquetMatrices of a Blob buffer)': () =>
      parquetMatrices(blobBuffer(new Blob([copy(bytes)])), name),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a Parquet file whose counts disagree is refused by every reader, naming the file and the counts', () => {
  it("1,000 rows of a 128-wide vector column whose footer says 1,797 (the issue's file)", async () => {
    const bytes = parquetLie('footer_rows', { rows: 1000, cols: 128, claimed: 1797 });
    for (const [path, read] of Object.entries(readers(bytes, 'lie.parquet'))) {
      await expect(read(), path).rejects.toThrow(
        "lie.parquet: the Parquet footer says the file holds 1,797 rows; its row group holds 1,000: the file's counts disagree",
      );
    }
  });

  // What each lie of make_parquet_lies.mjs (100 rows of 8 values; 179 claimed) is refused with.
  const expected: Record<string, string> = {
    footer_rows: "the Parquet footer says the file holds 179 rows; its row group holds 100: the file's counts disagree",
    group_rows:
      "the pages of column 'embedding' hold 100 rows in row group 0; the footer says it holds 179: the file's counts disagree",
    group_and_values:
      "the pages of column 'embedding' hold 100 rows in row group 0; the footer says it holds 179: the file's counts disagree",
    fewer_rows:
      "the pages of column 'embedding' hold 100 rows in row group 0; the footer says it holds 50: the file's counts disagree",
    negative_rows: 'the Parquet footer says the file holds -1 rows; a row count is a whole number from 0 to 2^53',
    negative_everywhere: 'the Parquet footer says the file holds -1 rows; a row count is a whole number from 0 to 2^53',
    rows_2_31:
      "the Parquet footer says the file holds 2,147,483,648 rows; its row group holds 100: the file's counts disagree",
    rows_2_31_everywhere:
      "the pages of column 'embedding' hold 100 rows in row group 0; the footer says it holds 2,147,483,648: the file's counts disagree",
  };
  for (const [lie, message] of Object.entries(expected)) {
    it(`${lie}: "${message}"`, async () => {
      const bytes = parquetLie(lie);
      for (const [path, read] of Object.entries(readers(bytes, 'lie.parquet'))) {
        await expect(read(), path).rejects.toThrow(`lie.parquet: ${message}`);
      }
    });
  }

  it('a row group whose scalar column declares more values than the group has rows (the Probe tab reads it)', async () => {
    const bytes = parquetLie('scalar_values', { scalar: true });
    await expect(readParquet(copy(bytes), 'lie.parquet')).rejects.toThrow(
      "lie.parquet: column 'id' in row group 0 declares 179 values for the 100 rows its row group says it holds; the file's counts disagree",
    );
  });

  it('a data page whose header says more values than it holds is refused, naming the file', async () => {
    const bytes = parquetLie('page_values');
    for (const [path, read] of Object.entries(readers(bytes, 'lie.parquet'))) {
      await expect(read(), path).rejects.toThrow(/^lie\.parquet: cannot read Parquet/);
    }
  });

  it('every lie the generator knows is covered above', () => {
    expect([...Object.keys(expected), 'scalar_values', 'page_values'].sort()).toEqual([...LIES].sort());
  });
});

describe('honest files read value for value', () => {
  const value = (i: number, c: number) => i + c / 256;

  it("the generator's honest file, by every reader", async () => {
    const bytes = parquetLie('honest', { rows: 100, cols: 8 });
    for (const [path, read] of Object.entries(readers(bytes, 'ok.parquet'))) {
      const result = await read();
      const m = Array.isArray(result)
        ? { rows: result[0].shape[0], cols: result[0].shape[1], data: result[0].data }
        : result.embeddings!;
      expect([m.rows, m.cols], path).toEqual([100, 8]);
      expect(m.data[37 * 8 + 5], path).toBe(value(37, 5));
      expect(m.data[99 * 8 + 7], path).toBe(value(99, 7));
    }
  });

  it('several row groups, with a scalar column beside the vectors', async () => {
    const rows = 250;
    const bytes = parquetLie('honest', { rows, cols: 3, scalar: true, rowGroupSize: 64 });
    const parsed = await readParquet(copy(bytes), 'groups.parquet');
    expect(parsed.rows).toBe(rows);
    expect(parsed.embeddings!.data[200 * 3 + 2]).toBe(value(200, 2));
    expect(parsed.columns).toHaveLength(1);
    expect(Array.from(parsed.columns[0].values as Float64Array).slice(60, 70)).toEqual(
      Array.from({ length: 10 }, (_, k) => 60 + k),
    );
    const [matrix] = await parquetMatrices(copy(bytes), 'groups.parquet');
    expect(matrix.shape).toEqual([rows, 3]);
    expect(Array.from(matrix.data.subarray(3 * 127, 3 * 130))).toEqual(
      [127, 128, 129].flatMap((i) => [value(i, 0), value(i, 1), value(i, 2)]),
    );
  });

  it('a file of no rows is refused by the Compare reader as holding no embedding rows', async () => {
    const bytes = parquetLie('honest', { rows: 0, cols: 4 });
    await expect(parquetMatrices(copy(bytes), 'empty.parquet')).rejects.toThrow(
      'empty.parquet: holds 0 rows: an embedding needs at least one row',
    );
  });
});
