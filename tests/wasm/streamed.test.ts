// Embeddings streamed from their .npy file (io/streamed_dataset.ts, io/npy_rows.ts, engine/streamed_scores.ts,
// worker/streamed_data.ts) give the scores the in-memory path gives (the file parsed whole, uploaded to
// the heap, the worker's probe session and its kept scores) to 1e-9, for float32 and float64 files of
// either byte order, across chunk boundaries; bad files are refused with messages naming the file.
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../../web/src/engine/index.ts';
import { knowledgeGainStreamed, scoreStreamed } from '../../web/src/engine/probe/streamed_scores.ts';
import { principalComponents } from '../../web/src/engine/probe/analysis.ts';
import { loadDataset } from '../../web/src/io/load_files.ts';
import { openStreamedDataset } from '../../web/src/io/streamed_dataset.ts';
import type { HandlerContext } from '../../web/src/common/worker/handler.ts';
import { ProbeSession } from '../../web/src/labs/probe/worker/probe_session.ts';
import { sampleRowIndices, scoreStreamedMain, streamedMap } from '../../web/src/common/worker/streamed_data.ts';
import { blob as blobOf, npyBytes } from '../web/fixtures.ts';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

const n = 300,
  d = 12;

function context(engineFor: ProbeEngine, signal = new AbortController().signal): HandlerContext & { stages: string[] } {
  const stages: string[] = [];
  return {
    engines: { probe: engineFor } as HandlerContext['engines'],
    signal,
    stages,
    progress: (p) => {
      if (!stages.includes(p.stage)) stages.push(p.stage);
    },
  };
}

function expectClose(actual: ProbeScores, expected: ProbeScores): void {
  for (const column of Object.keys(expected) as (keyof ProbeScores)[]) {
    expect(actual[column].length).toBe(expected[column].length);
    for (let i = 0; i < expected[column].length; i++) {
      expect(Math.abs(actual[column][i] - expected[column][i]), `${column}[${i}]`).toBeLessThan(
        1e-9 * Math.max(1, Math.abs(expected[column][i])),
      );
    }
  }
}

/** The file's values as a big-endian copy. */
function bigEndian(values: Float32Array | Float64Array): Uint8Array {
  const size = values.BYTES_PER_ELEMENT;
  const out = new Uint8Array(values.length * size);
  const view = new DataView(out.buffer);
  values.forEach((v, k) => (size === 4 ? view.setFloat32(4 * k, v, false) : view.setFloat64(8 * k, v, false)));
  return out;
}

const observations = Int32Array.from([3, 17, 40, 41, 99, 150, 151, 260, 299]);

async function inMemoryScores(blob: Blob, name: string): Promise<ProbeScores> {
  const dataset = await loadDataset([{ blob, name }]);
  const resident = engine.upload(dataset.embeddings, 'embeddings');
  const session = new ProbeSession();
  try {
    const labels = Uint8Array.from(observations, (r) => r % 2);
    session.update(engine, resident, 0.1, 5, observations, labels);
    return await session.scores('main', resident, { chunkRows: 4096 });
  } finally {
    session.reset();
    resident.dispose();
  }
}

describe('streamed embeddings', () => {
  it('score as the in-memory path does, float32 and float64, little- and big-endian, across chunks', async () => {
    const source = engine.syntheticEmbeddings(n, d, 11).x;
    const files: [string, Uint8Array][] = [
      ['e32.npy', npyBytes('<f4', [n, d], Float32Array.from(source.data))],
      ['e64.npy', npyBytes('<f8', [n, d], source.data)],
      ['b32.npy', npyBytes('>f4', [n, d], bigEndian(Float32Array.from(source.data)))],
      ['b64.npy', npyBytes('>f8', [n, d], bigEndian(source.data))],
    ];
    const labels = Uint8Array.from(observations, (r) => r % 2);
    for (const [name, bytes] of files) {
      const blob = blobOf(bytes);
      const expected = await inMemoryScores(blob, name);
      const streamed = await openStreamedDataset([{ blob, name }], { streamAboveBytes: 0 });
      expect(streamed, name).not.toBeNull();
      expect(streamed!.embeddings.dtype).toBe(name.includes('32') ? 32 : 64);
      const main = { name, rows: streamed!.embeddings };
      const c = context(engine);
      const run = await scoreStreamedMain(
        engine,
        main,
        { epsilon: 0.1, strength: 5, observations, labels },
        c,
        n,
        async () => 'also',
      );
      expect(run.fullPass).toBe(true);
      expect(run.also).toBe('also');
      expect(run.observationCount).toBe(observations.length);
      expectClose(run.scores, expected);
      // Chunks of 7 rows (300 = 42 * 7 + 6): every boundary lands inside the file.
      const probe = engine.fitProbe({
        observations: await main.rows.gatherRows(observations),
        labels,
        epsilon: 0.1,
        strength: 5,
        expectedQueries: n,
      });
      try {
        const done: number[] = [];
        expectClose(
          await scoreStreamed(probe, main.rows, {
            chunkRows: 7,
            onProgress: (p) => {
              done.push(p.done);
            },
          }),
          expected,
        );
        expect(done.slice(0, 2)).toEqual([7, 14]);
        expect(done.at(-1)).toBe(n);
        // The verdict's knowledge gains, streamed, equal the probe's over the rows held whole.
        const whole = await main.rows.readRows(0, n);
        const gain = await probe.knowledgeGainAsync(whole);
        const streamedGain = await knowledgeGainStreamed(probe, main.rows, { chunkRows: 13 });
        gain.forEach((g, i) => expect(Math.abs(streamedGain[i] - g)).toBeLessThan(1e-12 * Math.max(1, Math.abs(g))));
        expect(Math.max(...gain)).toBeGreaterThan(0);
      } finally {
        probe.dispose();
      }
      // The same probe again: the kept scores, no pass over the file.
      const again = await scoreStreamedMain(
        engine,
        main,
        { epsilon: 0.1, strength: 5, observations, labels },
        c,
        n,
        async () => null,
      );
      expect(again.fullPass).toBe(false);
      expectClose(again.scores, expected);
    }
  });

  it('reads scattered rows in the order asked, and the map is the PCA of a sample placed at its rows', async () => {
    const source = engine.syntheticEmbeddings(n, d, 12).x;
    const blob = blobOf(npyBytes('<f8', [n, d], source.data));
    const rows = (await openStreamedDataset([{ blob, name: 'e.npy' }], { streamAboveBytes: 0 }))!.embeddings;
    const wanted = [299, 0, 5, 5, 4, 120, 60];
    const got = await rows.gatherRows(wanted);
    wanted.forEach((r, k) =>
      expect(Array.from(got.data.subarray(k * d, (k + 1) * d))).toEqual(
        Array.from(source.data.subarray(r * d, (r + 1) * d)),
      ),
    );

    const sample = sampleRowIndices(1_000_000);
    expect(sample.length).toBe(20_000);
    expect(sample[0]).toBe(0);
    expect(sample[40]).toBe(2000); // 500 blocks of 40 rows, one every 2000 rows
    expect(sample.at(-1)).toBe(998_000 + 39);
    expect(Array.from(sampleRowIndices(50))).toEqual(Array.from({ length: 50 }, (_, i) => i));

    const map = await streamedMap(engine, { name: 'e.npy', rows }, context(engine));
    const pc = principalComponents(engine, source, { k: 2 });
    for (let i = 0; i < n; i++) {
      expect(Math.abs(map.x[i] - pc.scores[2 * i])).toBeLessThan(1e-9);
      expect(Math.abs(map.y[i] - pc.scores[2 * i + 1])).toBeLessThan(1e-9);
    }
  });

  it('adds metadata files, and refuses bad input naming the file', async () => {
    const source = engine.syntheticEmbeddings(n, d, 13).x;
    const data = Float32Array.from(source.data);
    const labels = {
      blob: blobOf(
        npyBytes(
          '<i8',
          [n],
          BigInt64Array.from({ length: n }, (_, i) => BigInt(i % 2)),
        ),
      ),
      name: 'labels.npy',
    };
    const embeddings = { blob: blobOf(npyBytes('<f4', [n, d], data)), name: 'e.npy' };
    const dataset = (await openStreamedDataset([embeddings, labels], { streamAboveBytes: 0 }))!;
    expect(dataset.name).toBe('e.npy + labels.npy');
    expect(dataset.columns.map((c) => c.name)).toEqual(['labels']);
    expect(Array.from((dataset.columns[0].values as Float64Array).slice(0, 4))).toEqual([0, 1, 0, 1]);
    expect(dataset.notes[0]).toMatch(/^e\.npy: .* read from the file as needed/);

    // Below the threshold, or not a float matrix: the in-memory path.
    expect(await openStreamedDataset([embeddings], { streamAboveBytes: 1e9 })).toBeNull();
    expect(await openStreamedDataset([labels], { streamAboveBytes: 0 })).toBeNull();

    const short = { blob: blobOf(npyBytes('<i8', [n - 1], new BigInt64Array(n - 1))), name: 'short.npy' };
    await expect(openStreamedDataset([embeddings, short], { streamAboveBytes: 0 })).rejects.toThrow(
      `short.npy: has ${n - 1} rows, e.npy has ${n}`,
    );
    const cut = npyBytes('<f4', [n, d], data).slice(0, 128 + 4 * d * 10);
    await expect(
      openStreamedDataset([{ blob: blobOf(cut), name: 'cut.npy' }], { streamAboveBytes: 0 }),
    ).rejects.toThrow(/^cut\.npy: truncated/);

    // A file that can no longer be read (changed or moved since it was chosen) is named.
    const real = blobOf(npyBytes('<f4', [n, d], data));
    const moved = {
      size: real.size,
      slice: (start: number, end: number) =>
        start === 0
          ? real.slice(start, end)
          : { arrayBuffer: () => Promise.reject(new Error('The requested file could not be read')) },
    } as unknown as Blob;
    const gone = (await openStreamedDataset([{ blob: moved, name: 'moved.npy' }], { streamAboveBytes: 0 }))!;
    await expect(gone.embeddings.readRows(10, 5)).rejects.toThrow(
      'moved.npy: could not be read at rows 10 to 15 (The requested file could not be read); was it changed or moved since it was chosen? Choose it again',
    );

    // A NaN deep in the file is found by the pass that reaches it, named by its row in the whole file.
    const withNan = Float32Array.from(data);
    withNan[250 * d + 3] = NaN;
    const bad = (await openStreamedDataset([{ blob: blobOf(npyBytes('<f4', [n, d], withNan)), name: 'nan.npy' }], {
      streamAboveBytes: 0,
    }))!;
    const probe = engine.fitProbe({
      observations: await bad.embeddings.gatherRows([1, 2]),
      labels: Uint8Array.from([0, 1]),
    });
    try {
      await expect(scoreStreamed(probe, bad.embeddings, { chunkRows: 64 })).rejects.toThrow(
        'nan.npy: element [250, 3] is NaN',
      );
      await expect(knowledgeGainStreamed(probe, bad.embeddings, { chunkRows: 100 })).rejects.toThrow(
        'nan.npy: element [250, 3] is NaN',
      );
      // An observation (or a map sample) with a NaN is refused as it is read.
      await expect(bad.embeddings.gatherRows([3, 250])).rejects.toThrow('nan.npy: element [250, 3] is NaN');
      // Cancelled between chunks.
      const controller = new AbortController();
      const pass = scoreStreamed(probe, bad.embeddings, {
        chunkRows: 64,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      await expect(pass).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      probe.dispose();
    }
  });
});
