// The Compare lab's Parquet goes through the terminable parse worker (isolated_parse.ts), as the Probe
// tab's does: a reader that hangs is stopped after its budget, a reader that dies (hyparquet's unbounded
// definition-level run: a RangeError in a Chromium worker, a process abort in Node) ends in a FileError
// naming the file, and the lab reads the next file. Here a stand-in Worker plays the browser's (Node has
// none): it answers what the real parquetMatrices reads in this thread, hangs, or fails as the hostile
// file makes Chromium's worker fail. The reproducer itself is read on the Node path. And .npz arrays on
// the compare path refuse NaN/Inf naming the file, array and element.
import { readFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ParseWorkerReply, ParseWorkerRequest } from '../../web/src/io/isolated_parse.ts';
import { blobBuffer, parquetMatrices } from '../../web/src/io/multi_arrays.ts';
import { readRepresentations } from '../../web/src/labs/compare/worker/representation_files.ts';
import { blob, npyBytes, npzBytes } from './fixtures.ts';

const a = Float32Array.from([0.5, -1, 2, 0.25, -3, 4]);
const rowsOf = (data: ArrayLike<number>, cols: number) =>
  Array.from({ length: data.length / cols }, (_, i) => Array.from(data).slice(i * cols, (i + 1) * cols));

/** A Parquet file of one list<float> column 'layer' of 3 rows x 2. */
function layerFile(): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [{ name: 'layer', data: rowsOf(a, 2) }],
      schema: [
        { name: 'root', num_children: 1 },
        { name: 'layer', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
      ],
    }),
  );
}

/** What each stand-in worker did: the requests it got, whether it was terminated. */
const workers: { request?: ParseWorkerRequest; terminated: boolean }[] = [];

/** A browser Worker played in this thread: files named hang* never answer, crash* fail as Chromium's worker does. */
class StandInWorker {
  onmessage: ((event: MessageEvent<ParseWorkerReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  #log = { request: undefined as ParseWorkerRequest | undefined, terminated: false };
  constructor() {
    workers.push(this.#log);
  }
  postMessage(request: ParseWorkerRequest) {
    this.#log.request = request;
    if (request.fileName.startsWith('hang')) return;
    setTimeout(async () => {
      if (request.fileName.startsWith('crash')) {
        // What Chromium's worker reports for rle_hang.parquet (a run of 2^31 - 1 values grows a plain Array).
        this.onerror?.({ message: 'Uncaught RangeError: Invalid array length' } as ErrorEvent);
        return;
      }
      const source = request.source as { blob: Blob };
      try {
        const arrays = await parquetMatrices(blobBuffer(source.blob), request.fileName);
        this.onmessage?.({ data: { type: 'matrices', arrays } } as MessageEvent<ParseWorkerReply>);
      } catch (error) {
        this.onmessage?.({
          data: { type: 'failed', problem: (error as Error).message.slice(request.fileName.length + 2) },
        } as MessageEvent<ParseWorkerReply>);
      }
    }, 1);
  }
  terminate() {
    this.#log.terminated = true;
  }
}

describe('the Compare lab reads Parquet in the parse worker', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
    workers.length = 0;
  });

  it('stops a reader that hangs after its budget, names the file, and reads the next file', async () => {
    vi.stubGlobal('Worker', StandInWorker);
    vi.useFakeTimers();
    const file = layerFile();
    const hung = readRepresentations([{ name: 'hang.parquet', blob: blob(file) }]).then(
      () => 'read',
      (e: Error) => e.message,
    );
    // parseBudgetMs: 10 s plus a second per MB.
    await vi.advanceTimersByTimeAsync(10_000 + (file.length / 2 ** 20) * 1000 + 1);
    expect(await hung).toBe(
      'hang.parquet: the parquet_matrices reader did not finish within 10 s and was stopped; the file is damaged or built to hang the reader',
    );
    expect(workers[0].terminated).toBe(true);
    expect(workers[0].request?.format).toBe('parquet_matrices');
    expect(workers[0].request?.source).toHaveProperty('blob');
    vi.useRealTimers();
    const [next] = await readRepresentations([{ name: 'layers.parquet', blob: blob(file) }]);
    expect([next.name, next.embeddings.rows, next.embeddings.cols]).toEqual(['layers.parquet/layer', 3, 2]);
    expect(Array.from(next.embeddings.data)).toEqual(Array.from(a));
    expect(workers[1].terminated).toBe(true);
  });

  it('turns a reader that dies into a FileError naming the file, and reads the next file', async () => {
    vi.stubGlobal('Worker', StandInWorker);
    const file = layerFile();
    await expect(readRepresentations([{ name: 'crash.parquet', blob: blob(file) }])).rejects.toThrow(
      'crash.parquet: the parquet_matrices reader failed (Uncaught RangeError: Invalid array length)',
    );
    expect(workers[0].terminated).toBe(true);
    const [next] = await readRepresentations([{ name: 'layers.parquet', blob: blob(file) }]);
    expect(Array.from(next.embeddings.data)).toEqual(Array.from(a));
  });

  it("passes on the reader's own refusal with the file named", async () => {
    vi.stubGlobal('Worker', StandInWorker);
    const single = new Uint8Array(
      parquetWriteBuffer({ columnData: [{ name: 'label', data: ['x', 'y', 'x'], type: 'STRING' }] }),
    );
    await expect(readRepresentations([{ name: 'flat.parquet', blob: blob(single) }])).rejects.toThrow(
      'flat.parquet: holds no vector column (list of numbers) to take as an embedding',
    );
  });

  it('refuses the reproducer rle_hang.parquet with the file named (its one column, a nullable double, is no embedding: no page is read)', async () => {
    const hostile = new Uint8Array(readFileSync(new URL('../reference/hostile/rle_hang.parquet', import.meta.url)));
    await expect(readRepresentations([{ name: 'rle_hang.parquet', blob: blob(hostile) }])).rejects.toThrow(
      'rle_hang.parquet: holds no vector column (list of numbers) to take as an embedding',
    );
    const [next] = await readRepresentations([{ name: 'layers.parquet', blob: blob(layerFile()) }]);
    expect(Array.from(next.embeddings.data)).toEqual(Array.from(a));
  });
});

describe("the Compare lab's .npz arrays", () => {
  it('refuses NaN and Inf, naming the file, the array and the element', async () => {
    const withNaN = Float32Array.from([0.5, -1, NaN, 0.25, -3, 4]);
    const npz = npzBytes({ 'h1.npy': npyBytes('<f4', [3, 2], a), 'h2.npy': npyBytes('<f4', [3, 2], withNaN) });
    await expect(readRepresentations([{ name: 'layers.npz', blob: blob(npz) }])).rejects.toThrow(
      "layers.npz: array 'h2' element [1, 0] is NaN",
    );
    const withInf = Float64Array.from([0.5, -1, 2, 0.25, -3, 4, 1, -Infinity, 0]);
    const npz64 = npzBytes({ 'h3.npy': npyBytes('<f8', [3, 3], withInf) });
    await expect(readRepresentations([{ name: 'wide.npz', blob: blob(npz64) }])).rejects.toThrow(
      "wide.npz: array 'h3' element [2, 1] is -Inf",
    );
    // A finite archive still reads.
    const [ok] = await readRepresentations([
      { name: 'ok.npz', blob: blob(npzBytes({ 'h1.npy': npyBytes('<f4', [3, 2], a) })) },
    ]);
    expect([ok.name, ok.embeddings.rows, ok.embeddings.cols]).toEqual(['ok.npz/h1', 3, 2]);
  });
});
