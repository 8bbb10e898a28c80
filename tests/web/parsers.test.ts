// Every parser with good files and each kind of bad file; messages checked word for word.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { parseDelimitedText } from '../../web/src/io/delimited.ts';
import { parseJson, parseJsonLines } from '../../web/src/io/json.ts';
import { loadDataset, MAX_FILE_BYTES, parseFile } from '../../web/src/io/load_files.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { parseNpz } from '../../web/src/io/npz.ts';
import { parseSafetensors } from '../../web/src/io/safetensors.ts';
import { FileError } from '../../web/src/io/table.ts';
import { blob, npyBytes, npzBytes, safetensorsBytes } from './fixtures.ts';

const X = [
  [0.5, -1.25, 2],
  [3, 4.5, -6],
  [7, 8, 9.75],
  [-0.125, 0, 1],
];
const flat = X.flat();

async function expectFileError(run: () => unknown, message: string): Promise<void> {
  let caught: unknown;
  try {
    await run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(FileError);
  expect((caught as FileError).message).toBe(message);
}

describe('npy', () => {
  it('reads float32 and float64 C-order matrices exactly', () => {
    const f4 = parseNpy(npyBytes('<f4', [4, 3], Float32Array.from(flat)), 'a.npy');
    expect(f4.shape).toEqual([4, 3]);
    expect(f4.data).toBeInstanceOf(Float32Array);
    expect(Array.from(f4.data)).toEqual(flat);
    const f8 = parseNpy(npyBytes('<f8', [4, 3], Float64Array.from(flat)), 'a.npy');
    expect(f8.data).toBeInstanceOf(Float64Array);
    expect(Array.from(f8.data)).toEqual(flat);
  });

  it('reads Fortran order, big-endian, integers, bools and float16', () => {
    const fortran = new Float64Array(12);
    X.forEach((row, i) =>
      row.forEach((v, j) => {
        fortran[j * 4 + i] = v;
      }),
    );
    expect(Array.from(parseNpy(npyBytes('<f8', [4, 3], fortran, true), 'f.npy').data)).toEqual(flat);
    const big = new DataView(new ArrayBuffer(8 * 3));
    [1.5, -2, 3.25].forEach((v, i) => big.setFloat64(8 * i, v, false));
    expect(Array.from(parseNpy(npyBytes('>f8', [3], big), 'b.npy').data)).toEqual([1.5, -2, 3.25]);
    expect(Array.from(parseNpy(npyBytes('<i8', [3], BigInt64Array.from([1n, 0n, -5n])), 'i.npy').data)).toEqual([
      1, 0, -5,
    ]);
    expect(Array.from(parseNpy(npyBytes('|b1', [3], Uint8Array.from([1, 0, 1])), 'b.npy').data)).toEqual([1, 0, 1]);
    // float16: 1.0 = 0x3C00, -2.0 = 0xC000, 0.5 = 0x3800
    expect(
      Array.from(parseNpy(npyBytes('<f2', [3], Uint16Array.from([0x3c00, 0xc000, 0x3800])), 'h.npy').data),
    ).toEqual([1, -2, 0.5]);
  });

  it('names each bad file and its problem', async () => {
    await expectFileError(() => parseNpy(new Uint8Array(0), 'e.npy'), 'e.npy: file is empty');
    await expectFileError(
      () => parseNpy(new TextEncoder().encode('hello world'), 'h.npy'),
      'h.npy: not a .npy file (missing the \\x93NUMPY magic)',
    );
    await expectFileError(
      () => parseNpy(npyBytes('<c16', [1], new Float64Array(2)), 'c.npy'),
      "c.npy: unsupported dtype '<c16'",
    );
    await expectFileError(
      () => parseNpy(npyBytes('<f4', [4, 3], new Float32Array(6)), 't.npy'),
      't.npy: truncated: the header promises 48 bytes of data, the file holds 24',
    );
    await expectFileError(
      () => parseFile(blob(npyBytes('<f4', [2, 2, 3], new Float32Array(12))), 'cube.npy'),
      'cube.npy: expected a 2-D array of embeddings, got shape (2, 2, 3)',
    );
    const withNan = Float32Array.from(flat);
    withNan[5] = NaN;
    await expectFileError(
      () => parseFile(blob(npyBytes('<f4', [4, 3], withNan)), 'nan.npy'),
      'nan.npy: element [1, 2] is NaN',
    );
  });
});

describe('npz', () => {
  it('takes the 2-D array as embeddings and 1-D arrays as metadata', () => {
    const bytes = npzBytes({
      'embeddings.npy': npyBytes('<f4', [4, 3], Float32Array.from(flat)),
      'label.npy': npyBytes('<i8', [4], BigInt64Array.from([1n, 0n, 1n, 0n])),
      'classes.npy': npyBytes('<i8', [2], BigInt64Array.from([0n, 1n])),
    });
    const p = parseNpz(bytes, 'd.npz');
    expect(Array.from(p.embeddings!.data)).toEqual(flat);
    expect(p.columns).toEqual([{ name: 'label', kind: 'number', values: Float64Array.from([1, 0, 1, 0]) }]);
    expect(p.notes).toEqual(["ignored 'classes' (2,): not one value per row"]);
    expect(
      parseNpz(npzBytes({ 'arr_0.npy': npyBytes('<f8', [4, 3], Float64Array.from(flat)) }, false), 's.npz').embeddings!
        .rows,
    ).toBe(4);
  });

  it('rejects files that are not zip archives', async () => {
    await expectFileError(
      () => parseNpz(new TextEncoder().encode('not a zip'), 'x.npz'),
      'x.npz: not a .npz file (not a zip archive)',
    );
  });
});

describe('delimited text', () => {
  it('reads CSV with a header, metadata columns, quotes and CRLF', () => {
    const text =
      'id,label,x0,x1,x2\r\n1,"cat, small",0.5,-1.25,2\r\n2,dog,3,4.5,-6\r\n3,"say ""hi""",7,8,9.75\r\n4,cat,-0.125,0,1\r\n';
    const p = parseDelimitedText(text, 'a.csv');
    expect(p.embeddings).toEqual({ data: Float64Array.from(flat), rows: 4, cols: 3 });
    expect(p.columns).toEqual([
      { name: 'id', kind: 'number', values: Float64Array.from([1, 2, 3, 4]) },
      { name: 'label', kind: 'string', values: ['cat, small', 'dog', 'say "hi"', 'cat'] },
    ]);
  });

  it('reads headerless TSV, a column of vector literals, and the metadata-name rule', () => {
    const tsv = X.map((r) => r.join('\t')).join('\n');
    expect(Array.from(parseDelimitedText(tsv, 'v.tsv').embeddings!.data)).toEqual(flat);
    const vectors = 'label,embedding\ncat,"[0.5, -1.25, 2]"\ndog,"[3, 4.5, -6]"\n';
    const pv = parseDelimitedText(vectors, 'vec.csv');
    expect(Array.from(pv.embeddings!.data)).toEqual([0.5, -1.25, 2, 3, 4.5, -6]);
    expect(pv.columns[0]).toEqual({ name: 'label', kind: 'string', values: ['cat', 'dog'] });
    // No dimension-like names: every numeric column but label/target/... is a dimension.
    const named = parseDelimitedText('height,width,label\n1,2,0\n3,4,1\n', 'n.csv');
    expect(named.embeddings).toEqual({ data: Float64Array.from([1, 2, 3, 4]), rows: 2, cols: 2 });
    expect(named.columns.map((c) => c.name)).toEqual(['label']);
  });

  it('streams large files in chunks with the same result', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i},${(i * 0.001).toFixed(3)},${-i},"q${i}"`);
    const text = 'a0,a1,a2,name\n' + rows.join('\n');
    const streamed = await parseFile(blob(text), 'big.csv', {});
    const whole = parseDelimitedText(text, 'big.csv');
    expect(streamed.embeddings).toEqual(whole.embeddings);
    expect(streamed.rows).toBe(3000);
  });

  it('names each bad file and its problem', async () => {
    await expectFileError(
      () => parseDelimitedText('1,0\n0,1,2\n1,1\n', 'ragged.csv'),
      'ragged.csv: line 2 has 3 columns, line 1 has 2',
    );
    await expectFileError(
      () => parseDelimitedText('x0,x1\n1,0\n0,abc\n', 'cell.csv'),
      "cell.csv: line 3, column 2: 'abc' is not a number",
    );
    await expectFileError(() => parseDelimitedText('1,0\n0,nan\n', 'nan.csv'), 'nan.csv: line 2, column 2 is NaN');
    await expectFileError(() => parseDelimitedText('1,0\n0,-inf\n', 'inf.csv'), 'inf.csv: line 2, column 2 is -Inf');
    await expectFileError(
      () => parseDelimitedText('1,0\n,1\n', 'empty_cell.csv'),
      'empty_cell.csv: line 2, column 1 is empty',
    );
    await expectFileError(() => parseDelimitedText('', 'empty.csv'), 'empty.csv: file is empty');
    await expectFileError(() => parseDelimitedText('a,b\n', 'header.csv'), 'header.csv: no data rows');
    await expectFileError(
      () => parseDelimitedText('x0,x1,x2\n1,2\n', 'short.csv'),
      'short.csv: the header has 3 columns, line 2 has 2',
    );
    await expectFileError(
      () => parseDelimitedText('a\0b', 'bin.csv'),
      'bin.csv: looks like a binary file, not delimited text',
    );
    await expectFileError(
      () => parseDelimitedText('x0,x1\n"1,2\n', 'quote.csv'),
      'quote.csv: line 2: a quoted field is never closed',
    );
  });
});

describe('json and jsonl', () => {
  it('reads rows of numbers, objects with a vector field, and an object of columns', () => {
    expect(parseJson(JSON.stringify(X), 'r.json').embeddings).toEqual({
      data: Float64Array.from(flat),
      rows: 4,
      cols: 3,
    });
    const objects = X.map((v, i) => ({ id: i, embedding: v, tag: i % 2 ? 'b' : 'a', ok: i < 2 }));
    const p = parseJson(JSON.stringify(objects), 'o.json');
    expect(Array.from(p.embeddings!.data)).toEqual(flat);
    expect(p.columns).toEqual([
      { name: 'id', kind: 'number', values: Float64Array.from([0, 1, 2, 3]) },
      { name: 'tag', kind: 'string', values: ['a', 'b', 'a', 'b'] },
      { name: 'ok', kind: 'number', values: Float64Array.from([1, 1, 0, 0]) },
    ]);
    const columns = parseJson(JSON.stringify({ embeddings: X, label: [1, 0, 1, 0] }), 'c.json');
    expect(columns.columns).toEqual([{ name: 'label', kind: 'number', values: Float64Array.from([1, 0, 1, 0]) }]);
    const lines = objects.map((o) => JSON.stringify(o)).join('\n') + '\n';
    expect(parseJsonLines(lines, 'o.jsonl').embeddings).toEqual(p.embeddings);
  });

  it('names each bad file and its problem', async () => {
    await expectFileError(() => parseJson('', 'e.json'), 'e.json: file is empty');
    // The parser's own detail differs between JavaScript engines; the file and the problem do not.
    await expect(() => parseJson('{oops', 'bad.json')).toThrowError(/^bad\.json: is not valid JSON \(.+\)$/);
    await expectFileError(
      () => parseJson('[[1,2],[3]]', 'ragged.json'),
      'ragged.json: row 1 has 1 values, row 0 has 2',
    );
    await expectFileError(
      () => parseJson('[[1,2],[3,"x"]]', 'text.json'),
      'text.json: row 1, value 1: "x" is not a number',
    );
    await expectFileError(
      () => parseJsonLines('{"v":[1,2]}\n{"v":[1,\n', 'b.jsonl'),
      'b.jsonl: line 2 is not valid JSON',
    );
    await expectFileError(
      () => parseJson('[{"name":"a"}]', 'no_vec.json'),
      'no_vec.json: row 0 has no array of numbers and no numeric fields',
    );
  });
});

describe('safetensors', () => {
  it('reads F32/F64/F16 tensors and 1-D metadata', () => {
    const bytes = safetensorsBytes({
      embeddings: { dtype: 'F32', shape: [4, 3], data: Float32Array.from(flat) },
      label: { dtype: 'I64', shape: [4], data: BigInt64Array.from([1n, 0n, 0n, 1n]) },
    });
    const p = parseSafetensors(bytes, 'm.safetensors');
    expect(Array.from(p.embeddings!.data)).toEqual(flat);
    expect(p.columns[0]).toEqual({ name: 'label', kind: 'number', values: Float64Array.from([1, 0, 0, 1]) });
    const half = parseSafetensors(
      safetensorsBytes({ x: { dtype: 'F16', shape: [1, 2], data: Uint16Array.from([0x3c00, 0xc000]) } }),
      'h.safetensors',
    );
    expect(Array.from(half.embeddings!.data)).toEqual([1, -2]);
  });

  it('names each bad file and its problem', async () => {
    await expectFileError(() => parseSafetensors(new Uint8Array(0), 'e.safetensors'), 'e.safetensors: file is empty');
    await expectFileError(
      () => parseSafetensors(new Uint8Array(20), 'z.safetensors'),
      'z.safetensors: not a safetensors file (header is not JSON)',
    );
    const bad = safetensorsBytes({ x: { dtype: 'F32', shape: [4, 3], data: new Float32Array(6) } });
    await expectFileError(
      () => parseSafetensors(bad, 't.safetensors'),
      "t.safetensors: tensor 'x' is truncated or its offsets do not match its shape",
    );
  });
});

describe('parquet', () => {
  it('reads a list column of embeddings with metadata, and wide numeric columns', async () => {
    const list = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'embedding', data: X },
          { name: 'label', data: ['cat', 'dog', 'cat', 'eel'], type: 'STRING' },
        ],
      }),
    );
    const p = await parseFile(blob(list), 'l.parquet');
    expect(Array.from(p.embeddings!.data)).toEqual(flat);
    expect(p.columns).toEqual([{ name: 'label', kind: 'string', values: ['cat', 'dog', 'cat', 'eel'] }]);
    const wide = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'f0', data: X.map((r) => r[0]), type: 'DOUBLE' },
          { name: 'f1', data: X.map((r) => r[1]), type: 'DOUBLE' },
          { name: 'f2', data: X.map((r) => r[2]), type: 'DOUBLE' },
          { name: 'split', data: ['a', 'b', 'a', 'b'], type: 'STRING' },
        ],
      }),
    );
    const w = await parseFile(blob(wide), 'w.parquet');
    expect(Array.from(w.embeddings!.data)).toEqual(flat);
    expect(w.columns.map((c) => c.name)).toEqual(['split']);
  });

  it('rejects files without the PAR1 markers', async () => {
    await expectFileError(
      () => parseFile(blob('PAR1 nope'), 'x.parquet'),
      'x.parquet: not a Parquet file (missing PAR1 markers)',
    );
  });
});

describe('datasets from several files', () => {
  it('joins the Embedding Projector pair (single-column metadata has no header)', async () => {
    const vectors = X.map((r) => r.join('\t')).join('\n') + '\n';
    const d = await loadDataset([
      { blob: blob(vectors), name: 'vectors.tsv' },
      { blob: blob('cat\ndog\ncat\neel\n'), name: 'metadata.tsv' },
    ]);
    expect(d.name).toBe('vectors.tsv + metadata.tsv');
    expect(d.columns).toEqual([{ name: 'metadata', kind: 'string', values: ['cat', 'dog', 'cat', 'eel'] }]);
    const multi = await loadDataset([
      { blob: blob(vectors), name: 'vectors.tsv' },
      { blob: blob('animal\tsize\ncat\t1\ndog\t2\ncat\t1\neel\t3\n'), name: 'metadata.tsv' },
    ]);
    expect(multi.columns).toEqual([
      { name: 'animal', kind: 'string', values: ['cat', 'dog', 'cat', 'eel'] },
      { name: 'size', kind: 'number', values: Float64Array.from([1, 2, 1, 3]) },
    ]);
    // A numeric metadata table beside embeddings: its columns are metadata, not a second embedding.
    const csv = await loadDataset([
      { blob: blob(npyBytes('<f4', [4, 3], Float32Array.from(flat))), name: 'e.npy' },
      { blob: blob('digit,odd\n3,1\n4,0\n7,1\n0,0\n'), name: 'm.csv' },
    ]);
    expect(csv.columns.map((c) => c.name)).toEqual(['digit', 'odd']);
    expect(csv.embeddings.cols).toBe(3);
  });

  it('joins embeddings with a separate labels file and checks row counts', async () => {
    const emb = blob(npyBytes('<f4', [4, 3], Float32Array.from(flat)));
    const d = await loadDataset([
      { blob: emb, name: 'emb.npy' },
      { blob: blob(npyBytes('<i8', [4], BigInt64Array.from([1n, 0n, 1n, 0n]))), name: 'labels.npy' },
    ]);
    expect(d.columns).toEqual([{ name: 'labels', kind: 'number', values: Float64Array.from([1, 0, 1, 0]) }]);
    await expectFileError(
      () =>
        loadDataset([
          { blob: emb, name: 'emb.npy' },
          { blob: blob('label\n1\n0\n1\n'), name: 'meta.csv' },
        ]),
      'meta.csv: has 3 rows after line 1 (“label”) was taken as its header, emb.npy has 4',
    );
    await expectFileError(
      () =>
        loadDataset([
          { blob: emb, name: 'a.npy' },
          { blob: emb, name: 'b.npy' },
        ]),
      'b.npy: holds embeddings too; choose one embeddings file (a.npy) plus metadata files',
    );
    await expectFileError(
      () => loadDataset([{ blob: blob('label\n1\n'), name: 'only_labels.csv' }]),
      'only_labels.csv: no embeddings found (expected a 2-D array or numeric columns)',
    );
  });

  it('refuses unsupported types and files too large to load', async () => {
    await expectFileError(
      () => parseFile(blob('\x89PNG'), 'picture.png'),
      'picture.png: is an image: gpprobe reads one as the sprite sheet that a projector_config.json chosen with it names',
    );
    await expectFileError(
      () => parseFile(blob('x'), 'notes.docx'),
      'notes.docx: unsupported file type (.docx); gpprobe reads .npy, .npz, .csv, .tsv, .txt, .json, .jsonl, .ndjson, .safetensors, .parquet, .bytes (with its projector_config.json)',
    );
    const huge = { size: MAX_FILE_BYTES + 1 } as Blob;
    await expectFileError(
      () => parseFile(huge, 'huge.npy'),
      'huge.npy: is 1.5 GB; the browser can load files up to 1.5 GB (try float32 .npy, or fewer rows)',
    );
    const controller = new AbortController();
    controller.abort();
    await expectFileError(
      () => parseFile(blob('1,2\n'), 'c.csv', { signal: controller.signal }),
      'c.csv: loading cancelled',
    );
  });
});

describe("the Embedding Projector's own files, uploaded", () => {
  const bytesOf = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);
  const config = (metadataPath: string) =>
    JSON.stringify({
      embeddings: [{ tensorName: 'faces', tensorShape: [4, 3], tensorPath: 'out/faces.bytes', metadataPath }],
    });

  it("reads a .bytes tensor by its config's shape, and a one-column metadata file of any name has no header", async () => {
    const d = await loadDataset([
      { blob: blob(config('names.tsv')), name: 'projector_config.json' },
      { blob: blob(bytesOf(flat)), name: 'faces.bytes' },
      { blob: blob('Ada\nBo\nAda\nCy\n'), name: 'names.tsv' },
    ]);
    expect(d.name).toBe('faces');
    expect(Array.from(d.embeddings.data)).toEqual(flat);
    expect(d.columns).toEqual([{ name: 'names', kind: 'string', values: ['Ada', 'Bo', 'Ada', 'Cy'] }]);
  });

  it('says when line 1 of a one-column file was taken as a header, and when it was read as a value', async () => {
    const emb = { blob: blob(npyBytes('<f4', [4, 3], Float32Array.from(flat))), name: 'e.npy' };
    // Ordinary upload, one-column text file whose line 1 is a name: five lines for four rows.
    const header = await loadDataset([emb, { blob: blob('person\nAda\nBo\nAda\nCy\n'), name: 'people.txt' }]);
    expect(header.columns[0]).toEqual({ name: 'person', kind: 'string', values: ['Ada', 'Bo', 'Ada', 'Cy'] });
    expect(header.notes).toContain('people.txt: line 1 (“person”) was taken as the header');
    // Four lines for four rows: line 1 is a value (the Projector's rule), and the note says so.
    const value = await loadDataset([emb, { blob: blob('Ada\nBo\nAda\nCy\n'), name: 'people.csv' }]);
    expect(value.columns[0]).toMatchObject({ kind: 'string', values: ['Ada', 'Bo', 'Ada', 'Cy'] });
    expect(value.notes).toContain(
      "people.csv: line 1 (“Ada”) is a value, not a header: a one-column metadata file has none (the Embedding Projector's rule)",
    );
  });

  it('refuses a .bytes file without its config, and a config without its tensor', async () => {
    await expectFileError(
      () => loadDataset([{ blob: blob(bytesOf(flat)), name: 'faces.bytes' }]),
      "faces.bytes: is raw float32 values without their shape: choose its projector_config.json together with it (the config's tensorShape says how many rows and columns)",
    );
    await expectFileError(
      () => loadDataset([{ blob: blob(config('m.tsv')), name: 'projector_config.json' }]),
      'projector_config.json: names the tensor faces.bytes; choose it together with the config',
    );
    // Three embeddings: one tensor is meant, so the message says there is a choice (issue 36, item 12).
    const three = JSON.stringify({
      embeddings: ['a', 'b', 'c'].map((n) => ({ tensorName: n, tensorShape: [4, 3], tensorPath: `${n}.bytes` })),
    });
    await expectFileError(
      () => loadDataset([{ blob: blob(three), name: 'projector_config.json' }]),
      'projector_config.json: names 3 tensors (a.bytes, b.bytes and c.bytes), one per embedding; choose the one to probe together with the config',
    );
    await expectFileError(
      () =>
        loadDataset([
          { blob: blob(config('m.tsv')), name: 'projector_config.json' },
          { blob: blob(bytesOf(flat.slice(1))), name: 'faces.bytes' },
        ]),
      "faces.bytes: holds 44 bytes; the config's tensorShape [4, 3] needs 48 (float32)",
    );
  });

  it("checks a .npy header before reading the file's body", async () => {
    // A "1.4 GB" file of junk: only its first bytes may be read.
    let read = 0;
    const junk = new Uint8Array(1 << 16).fill(7);
    const huge = {
      size: 1.4e9,
      slice: (start: number, end: number) => {
        read += end - start;
        return new Blob([junk.subarray(0, end - start)]);
      },
      arrayBuffer: () => {
        throw new Error('read in full');
      },
      stream: () => {
        throw new Error('read in full');
      },
    } as unknown as Blob;
    await expectFileError(
      () => parseFile(huge, 'junk.npy'),
      'junk.npy: not a .npy file (missing the \\x93NUMPY magic)',
    );
    expect(read).toBeLessThanOrEqual(1 << 16);
  });
});
