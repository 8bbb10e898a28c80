// Reading what links point at: an Embedding Projector config (paths resolved against it, shapes
// checked), its float32 .bytes tensor and one-column metadata.tsv (no header: the Projector's rule),
// its sprite sheet's layout, and Parquet read by ranges — only the footer and the columns gpprobe uses —
// over HTTP with progress in bytes, the size limit and messages that name the file.
import { readFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../web/src/engine/progress.ts';
import { parseFile } from '../../web/src/io/load_files.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { readParquet } from '../../web/src/io/parquet.ts';
import { readParquetOverHttp } from '../../web/src/io/parquet_over_http.ts';
import { parseProjectorConfig, parseTensorBytes, spriteColumns, spriteProblem } from '../../web/src/io/projector.ts';

const DIR = 'tests/e2e/fixtures/projector';

describe('Embedding Projector files', () => {
  it("resolves each embedding's paths against the config's URL", () => {
    const config = readFileSync(`${DIR}/projector_config.json`, 'utf8');
    const embeddings = parseProjectorConfig(
      config,
      'https://data.example/share/projector_config.json',
      'projector_config.json',
    );
    expect(embeddings.map((e) => e.tensorName)).toEqual(['Digits: hidden layer', 'Digits: pixels']);
    expect(embeddings[0]).toEqual({
      tensorName: 'Digits: hidden layer',
      tensorShape: [300, 64],
      tensorUrl: 'https://data.example/share/hidden.bytes',
      metadataUrl: 'https://data.example/share/metadata.tsv',
      sprite: { imageUrl: 'https://data.example/share/sprite.png', singleImageDim: [8, 8] },
    });
    const absolute = parseProjectorConfig(
      JSON.stringify({ embeddings: [{ tensorShape: [2, 3], tensorPath: 'https://cdn.example/t.bytes' }] }),
      'https://a.example/c.json',
      'c.json',
    );
    expect(absolute).toEqual([
      { tensorName: 'embedding 1', tensorShape: [2, 3], tensorUrl: 'https://cdn.example/t.bytes' },
    ]);
  });

  it('refuses a config that is not one, with the field named', () => {
    const parse = (text: string) => () => parseProjectorConfig(text, 'https://a.example/c.json', 'c.json');
    expect(parse('{')).toThrow('c.json: is not JSON');
    expect(parse('{"embeddings": []}')).toThrow(
      'c.json: is not an Embedding Projector config (expected a non-empty "embeddings" list)',
    );
    expect(parse('{"embeddings": [{"tensorShape": [10], "tensorPath": "t.bytes"}]}')).toThrow(
      'c.json: embeddings[0].tensorShape must be two positive integers, got [10]',
    );
    expect(parse('{"embeddings": [{"tensorShape": [1, 2]}]}')).toThrow(
      'c.json: embeddings[0].tensorPath must be a path or URL',
    );
  });

  it("reads a .bytes tensor with the config's shape: the same values as the demo's .npy rows", () => {
    const parsed = parseTensorBytes(readFileSync(`${DIR}/hidden.bytes`), [300, 64], 'hidden.bytes');
    const npy = parseNpy(readFileSync('web/public/demo/digits/embeddings.npy'), 'embeddings.npy');
    expect(parsed.embeddings!.data).toBeInstanceOf(Float32Array);
    expect(Array.from(parsed.embeddings!.data)).toEqual(Array.from(npy.data.subarray(0, 300 * 64)));
    expect(() => parseTensorBytes(readFileSync(`${DIR}/hidden.bytes`), [301, 64], 'hidden.bytes')).toThrow(
      "hidden.bytes: holds 76,800 bytes; the config's tensorShape [301, 64] needs 77,056 (float32)",
    );
  });

  it('reads a one-column metadata.tsv without a header, and a several-column one with it', async () => {
    const one = await parseFile(new Blob([readFileSync(`${DIR}/metadata.tsv`)]), 'metadata.tsv', {
      projectorMetadata: true,
    });
    expect(one.rows).toBe(300);
    expect(one.columns[0].values.slice(0, 3)).toEqual(Float64Array.from([0, 1, 2]));
    const two = await parseFile(new Blob(['digit\tsplit\n0\ttrain\n1\ttest\n']), 'labels', { projectorMetadata: true });
    expect(two.rows).toBe(2);
    expect(two.columns.map((c) => c.name)).toEqual(['digit', 'split']);
  });

  it('lays thumbnails out in rows of ⌈√N⌉ and says when a sheet is too small', () => {
    expect(spriteColumns(300)).toBe(18);
    expect(spriteColumns(1)).toBe(1);
    expect(spriteProblem(144, 144, 300, [8, 8])).toBeNull();
    expect(spriteProblem(144, 128, 300, [8, 8])).toBe(
      'is 144 × 128 pixels; 300 thumbnails of 8 × 8 in rows of 18 need 144 × 136',
    );
  });
});

describe('Parquet by ranges', () => {
  const ROWS = 400,
    DIM = 16;
  const vectors = Array.from({ length: ROWS }, (_, i) => Array.from({ length: DIM }, (_, j) => Math.sin(i * 0.37 + j)));
  // Incompressible bytes, seeded, so the skipped columns stay large in the file.
  let seed = 12345;
  const next = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return seed >>> 24;
  };
  const noise = (n: number) => Uint8Array.from({ length: n }, next);
  // As pyarrow writes a table of embeddings: list<double> columns, strings, doubles, and what a user's
  // table may also hold: raw bytes and another vector column, both large.
  const list = (name: string) => [
    { name, repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED' as const, type: 'DOUBLE' as const },
  ];
  const file = new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'id', data: Array.from({ length: ROWS }, (_, i) => `item-${i}`) },
        { name: 'embedding', data: vectors },
        { name: 'score', data: Float64Array.from({ length: ROWS }, (_, i) => i / ROWS) },
        { name: 'image', data: Array.from({ length: ROWS }, () => noise(20_000)) },
        { name: 'pixels', data: Array.from({ length: ROWS }, () => Array.from(noise(400), (b) => b / 255)) },
      ],
      schema: [
        { name: 'root', num_children: 5 },
        { name: 'id', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
        ...list('embedding'),
        { name: 'score', repetition_type: 'REQUIRED', type: 'DOUBLE' },
        { name: 'image', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY' },
        ...list('pixels'),
      ],
    }),
  );

  it('reads the footer and the used columns only, and names what it skipped', async () => {
    const ranges: [number, number][] = [];
    const buffer = {
      byteLength: file.byteLength,
      slice(start: number, end?: number): ArrayBuffer {
        ranges.push([start, end ?? file.byteLength]);
        return file.slice(start, end).buffer as ArrayBuffer;
      },
    };
    const parsed = await readParquet(buffer, 'table.parquet');
    expect(parsed.embeddings!.rows).toBe(ROWS);
    expect(parsed.embeddings!.cols).toBe(DIM);
    expect(parsed.embeddings!.data[5 * DIM + 3]).toBe(vectors[5][3]);
    expect(parsed.columns.map((c) => c.name)).toEqual(['id', 'score']);
    expect(parsed.notes).toContain("skipped columns 'image', 'pixels' (not an embedding or a scalar)");
    const read = ranges.reduce((s, [a, b]) => s + (b - a), 0);
    // The skipped columns are ~8.4 of its ~8.5 MB; what is read is the last 512 KB (hyparquet's first
    // guess at the footer) and the chunks of the three columns used.
    expect(file.byteLength).toBeGreaterThan(8e6);
    expect(read).toBeLessThan(0.1 * file.byteLength);
  });

  describe('over HTTP', () => {
    const URL_ = 'https://data.example/tables/table.parquet';
    afterEach(() => {
      vi.unstubAllGlobals();
    });
    /** A data host holding `file` (HEAD, and GET by Range), answering `status` instead when given; logs each request. */
    function host(options: { declared?: number; status?: number } = {}): { method: string; range: string | null }[] {
      const requests: { method: string; range: string | null }[] = [];
      vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET',
          range = new Headers(init.headers).get('range');
        requests.push({ method, range });
        expect(input).toBe(URL_);
        if (options.status) return new Response(null, { status: options.status, statusText: 'Not Found' });
        if (method === 'HEAD')
          return new Response(null, { headers: { 'content-length': String(options.declared ?? file.byteLength) } });
        const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(range!)!;
        const body = file.slice(Number(a), Number(b) + 1);
        return new Response(body, { status: 206, headers: { 'content-length': String(body.byteLength) } });
      });
      return requests;
    }

    it("reads the footer and the used columns by ranges, reporting the bytes received of the file's size", async () => {
      const requests = host();
      const seen: Progress[] = [];
      const { parsed, size } = await readParquetOverHttp(URL_, 'table.parquet', { onProgress: (p) => seen.push(p) });
      expect(size).toBe(file.byteLength);
      expect(parsed.embeddings!.rows).toBe(ROWS);
      expect(parsed.embeddings!.data[7 * DIM + 2]).toBe(vectors[7][2]);
      expect(parsed.columns.map((c) => c.name)).toEqual(['id', 'score']);
      expect(requests[0]).toEqual({ method: 'HEAD', range: null });
      const gets = requests.slice(1);
      expect(gets.every((r) => r.method === 'GET' && r.range !== null)).toBe(true);
      const lengths = gets.map((r) => {
        const [, a, b] = /^bytes=(\d+)-(\d+)$/.exec(r.range!)!;
        return Number(b) - Number(a) + 1;
      });
      // After the HEAD, 0 of the size; then after each range, the running sum of what was received.
      expect(seen.map((p) => [p.done, p.total])).toEqual([
        [0, file.byteLength],
        ...lengths.map((_, i) => [lengths.slice(0, i + 1).reduce((x, y) => x + y), file.byteLength]),
      ]);
      expect(seen.every((p) => p.stage === 'reading table.parquet (only the columns used)')).toBe(true);
      expect(seen.at(-1)!.done).toBeLessThan(0.1 * file.byteLength);
    });

    it('refuses a file over the limit before reading any of it, and names the file on an HTTP error', async () => {
      const requests = host({ declared: 2 * 2 ** 30 });
      await expect(readParquetOverHttp(URL_, 'table.parquet')).rejects.toThrow(
        'table.parquet: is 2.0 GB; the browser can load files up to 1.5 GB',
      );
      expect(requests).toEqual([{ method: 'HEAD', range: null }]);
      host({ status: 404 });
      await expect(readParquetOverHttp(URL_, 'table.parquet')).rejects.toThrow(
        'table.parquet: could not be downloaded from https://data.example (HTTP 404 Not Found)',
      );
    });
  });
});
