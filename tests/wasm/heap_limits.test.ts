// The wasm heap at its limits (issue 9, items 5-7, 12): addresses at and above 2 GiB used as unsigned,
// byte counts of 2^32 and more refused before malloc, uploads that exhaust the 4 GiB heap ending in the
// GpprobeError out_of_memory with nothing leaked, and numbers that become counts or labels checked
// where they cross into C++. One module instance fills its heap here; the others stay small.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClassificationEngine,
  createProbeEngine,
  createRegressionEngine,
  GpprobeError,
  type Matrix,
  type ProbeEngine,
  ResidentMatrix,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

const BLOCK_ROWS = 2 ** 20,
  BLOCK_COLS = 64; // 256 MiB of float32 per filler block
const filler: Matrix = { data: new Float32Array(BLOCK_ROWS * BLOCK_COLS), rows: BLOCK_ROWS, cols: BLOCK_COLS };

const observations: Matrix = { data: Float64Array.from([1, 0, 0, 1, 1, 1, -1, 0.5]), rows: 4, cols: 2 };
const labels = Uint8Array.from([1, 0, 1, 0]);
const queries: Matrix = { data: Float32Array.from([1, 0, 0.5, 0.5, -0.25, 2, 3, -1]), rows: 4, cols: 2 };

/** Uploads `block` until the heap refuses it; the refusal must be out_of_memory. */
function fillHeap(engine: ProbeEngine, block = filler): ResidentMatrix[] {
  const blocks: ResidentMatrix[] = [];
  for (;;) {
    try {
      blocks.push(engine.upload(block, 'filler'));
    } catch (error) {
      expect(error).toBeInstanceOf(GpprobeError);
      expect((error as GpprobeError).code).toBe('out_of_memory');
      expect((error as GpprobeError).message).toMatch(/^cannot allocate \d+\.0 MB in the wasm heap for filler/);
      return blocks;
    }
  }
}

/** How many 16 MiB blocks the heap holds now (all freed again): its free memory, to 16 MiB. */
function capacity(engine: ProbeEngine): number {
  const blocks = fillHeap(engine, { data: new Float64Array(2 ** 21), rows: 2 ** 15, cols: 64 });
  for (const b of blocks) b.dispose();
  return blocks.length;
}

describe('a heap filled past 2 GiB', () => {
  let small: ProbeEngine, full: ProbeEngine;
  beforeAll(async () => {
    [small, full] = await Promise.all([createProbeEngine(), createProbeEngine()]);
  });

  it('scores resident queries and copies above 2 GiB like a small heap, and refuses the rest as out_of_memory', () => {
    const expected = small.fitProbe({ observations, labels, epsilon: 0.1, strength: 5 }).score(queries);
    const blocks = fillHeap(full);
    // 4 GiB hold at most 15 such blocks beside the module's own memory; at least 8 reach past 2 GiB.
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...blocks.map((b) => b.pointer()))).toBeGreaterThanOrEqual(2 ** 31);

    // Free one block high in the heap: the next uploads and copies land there, above 2 GiB.
    const high = blocks.reduce((a, b) => (b.pointer() > a.pointer() ? b : a));
    blocks.splice(blocks.indexOf(high), 1);
    high.dispose();
    // Holes low in the heap (left by the module's own scratch) take small blocks first: fill them with
    // copies of the queries until one lands in the freed block above 2 GiB.
    const fillers = [];
    let residentQueries = full.upload(queries, 'queries');
    while (residentQueries.pointer() < 2 ** 31 && fillers.length < 4096) {
      fillers.push(residentQueries);
      residentQueries = full.upload(queries, 'queries');
    }
    for (const f of fillers) f.dispose();
    expect(residentQueries.pointer()).toBeGreaterThanOrEqual(2 ** 31);
    const probe = full.fitProbe({ observations, labels, epsilon: 0.1, strength: 5 });
    for (const scores of [probe.score(residentQueries), probe.score(queries)]) {
      for (const column of Object.keys(expected) as (keyof typeof expected)[]) {
        expect(Array.from(scores[column]), column).toEqual(Array.from(expected[column]));
      }
    }
    expect(Array.from(residentQueries.gatherRows([3, 1]).data)).toEqual([3, -1, 0.5, 0.5]);

    probe.dispose();
    residentQueries.dispose();
    for (const b of blocks) b.dispose();

    // Nothing leaked by refused uploads and copies: the heap's free memory is the same after them.
    const free = capacity(full);
    expect(free * 16).toBeGreaterThan(3.5 * 1024); // MiB: nearly all of the 4 GiB
    for (let round = 0; round < 2; round++) {
      const again = fillHeap(full);
      expect(again.length).toBeGreaterThanOrEqual(blocks.length);
      expect(() => full.fitProbe({ observations: filler, labels: new Uint8Array(BLOCK_ROWS) })).toThrow(
        /^cannot allocate 256\.0 MB in the wasm heap for observations/,
      );
      for (const b of again) b.dispose();
    }
    expect(capacity(full)).toBe(free);
    // It writes the 4 GiB heap full five times: minutes when other work holds the machine's memory and
    // cores (it timed out at 240 s at load 43); nothing here depends on time.
  }, 900_000);
});

describe('sizes and indices that do not fit 32 bits', () => {
  let engine: ProbeEngine;
  beforeAll(async () => {
    engine = await createProbeEngine();
  });

  it('refuses byte counts of 2^32 and more before calling malloc', () => {
    expectError(
      () => engine.syntheticEmbeddings(2 ** 29, 2, 1),
      'out_of_memory',
      'synthetic embeddings would need 8.0 GB; the wasm heap holds 4.0 GB at most',
    );
  });

  it('refuses predictions of 70,000,000 points as out_of_memory, and keeps working', async () => {
    const regression = await createRegressionEngine();
    const gp = regression.fit({
      x: { data: Float64Array.from([0, 1, 2]), rows: 3, cols: 1 },
      y: Float64Array.from([0, 1, 0]),
      kernel: 'rbf(1)',
      noiseVariance: 0.1,
    });
    const test = { data: new Float32Array(70_000_000), rows: 70_000_000, cols: 1 };
    expectError(
      () => gp.predict(test),
      'out_of_memory',
      'predictions would need 4.2 GB; the wasm heap holds 4.0 GB at most',
    );
    expect(gp.predict({ data: Float64Array.from([1]), rows: 1, cols: 1 }).mean[0]).toBeGreaterThan(0.5);
  });

  it('removes observation 2^32 + k as out of range, not observation k', () => {
    const probe = engine.fitProbe({ observations, labels });
    expectError(
      () => probe.removeObservation(2 ** 32 + 1),
      'invalid_argument',
      'observation index must be a whole number from 0 to 4294967295, got 4294967297',
    );
    for (const bad of [-1, 0.5, NaN]) {
      expect(() => probe.removeObservation(bad)).toThrow(
        /^observation index must be a whole number from 0 to 4294967295, got /,
      );
    }
    expectError(
      () => probe.removeObservation(4),
      'invalid_argument',
      'cannot remove observation 4: the probe has 4 observations',
    );
    expect(probe.observationCount).toBe(4);
    probe.removeObservation(1);
    expect(Array.from(probe.labels)).toEqual([1, 1, 0]);
    probe.dispose();
  });

  it('rejects counts past 32 bits that would wrap in C++', () => {
    expectError(
      () => engine.drawObservations(labels, 2 ** 40, 1),
      'invalid_argument',
      'perClass must be a whole number from 0 to 4294967295, got 1099511627776',
    );
    expect(Array.from(engine.drawObservations(labels, 1, 1)).length).toBe(2);
  });

  it('rejects expectedQueries that are not counts', () => {
    for (const [value, text] of [
      [-1, '-1'],
      [NaN, 'nan'],
      [1e20, '1e+20'],
      [2.5, '2.5'],
    ] as const) {
      expectError(
        () => engine.fitProbe({ observations, labels, expectedQueries: value }),
        'invalid_argument',
        `expectedQueries must be a whole number from 0 to 4294967295, got ${text}`,
      );
    }
    expect(engine.fitProbe({ observations, labels, expectedQueries: 4294967295 }).observationCount).toBe(4);
  });

  it('rejects seeds and counts of the other labs that used to be converted without a word', async () => {
    const regression = await createRegressionEngine();
    const seedError = (text: string) => `seed must be a whole number from 0 to 9007199254740992, got ${text}`;
    for (const [seed, text] of [
      [-1, '-1'],
      [0.5, '0.5'],
      [NaN, 'nan'],
      [2 ** 53 + 2, '9007199254740994'],
    ] as const) {
      expectError(() => regression.example('lecture', seed), 'invalid_argument', seedError(text));
    }
    const gp = regression.fit({
      x: { data: Float64Array.from([0, 1, 2]), rows: 3, cols: 1 },
      y: Float64Array.from([0, 1, 0]),
      kernel: 'rbf(1)',
      noiseVariance: 0.1,
    });
    const test = { data: Float64Array.from([0.5, 1.5]), rows: 2, cols: 1 };
    expectError(
      () => gp.sample(test, 1.5),
      'invalid_argument',
      'count must be a whole number from 0 to 4294967295, got 1.5',
    );
    expectError(() => gp.sample(test, 2, -3), 'invalid_argument', seedError('-3'));
    expectError(() => regression.samplePrior('rbf(1)', test, 2, 0.25), 'invalid_argument', seedError('0.25'));
    // The largest exact seed is a seed: the same draw twice.
    expect(Array.from(gp.sample(test, 2, 2 ** 53).data)).toEqual(Array.from(gp.sample(test, 2, 2 ** 53).data));
    gp.dispose();
    const classification = await createClassificationEngine();
    expectError(() => classification.example('two-blobs', 1.5), 'invalid_argument', seedError('1.5'));
    expect(classification.example('two-blobs', 1).x.rows).toBe(100);
  });

  it('rejects added labels 0.5 and NaN, which used to become 0', () => {
    const probe = engine.fitProbe({ observations, labels });
    for (const [label, text] of [
      [0.5, '0.5'],
      [NaN, 'nan'],
      [-1, '-1'],
    ] as const) {
      expectError(
        () => probe.addObservation(Float64Array.from([0, 0]), label),
        'invalid_argument',
        `label must be 0 or 1, got ${text}`,
      );
    }
    expect(probe.observationCount).toBe(4);
    probe.dispose();
  });
});
