// fitProbe({ float32Products: true }) through the wasm module (its f32x4 kernel): Float32Array queries
// within the documented bound of the exact scores (relative 1e-6 on the variance, 5e-7 on the other
// columns), also on observations of strength 1e4 (near-zero variances); Float64Array queries bit for bit
// as without the option; the golden reference for float32 inputs within 1e-6 as without it.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../../web/src/engine/index.ts';

const COLUMNS = ['judgedProbability', 'episteme', 'alea', 'latentMean'] as const;

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

function scores(
  strength: number,
  float32Products: boolean,
  queries: { data: Float32Array | Float64Array; rows: number; cols: number },
): ProbeScores {
  const data = engine.syntheticEmbeddings(200, 48, 3);
  const probe = engine.fitProbe({
    observations: data.x,
    labels: data.labels,
    strength,
    space: 'weight',
    float32Products,
  });
  try {
    return probe.score(queries);
  } finally {
    probe.dispose();
  }
}

describe('float32 products', () => {
  it('keep float32 queries within the bound, also on observations of strength 1e4', () => {
    const synthetic = engine.syntheticEmbeddings(400, 48, 11).x;
    const observations = engine.syntheticEmbeddings(200, 48, 3).x; // the fitted rows: variances near zero
    const data = new Float32Array((400 + 200) * 48);
    data.set(synthetic.data);
    data.set(observations.data, 400 * 48);
    const queries = { data, rows: 600, cols: 48 };
    for (const strength of [5, 1e4]) {
      const exact = scores(strength, false, queries);
      const fast = scores(strength, true, queries);
      let different = 0;
      for (let i = 0; i < queries.rows; i++) {
        const e = exact.latentVariance[i],
          f = fast.latentVariance[i];
        expect(Math.abs(f - e), `variance ${i}: ${f} vs ${e}`).toBeLessThanOrEqual(1e-6 * e);
        if (f !== e) different++;
        for (const name of COLUMNS)
          expect(Math.abs(fast[name][i] - exact[name][i]), `${name} ${i}`).toBeLessThanOrEqual(5e-7);
      }
      expect(different).toBeGreaterThan(queries.rows / 2); // the float32 kernel did run
      if (strength > 1e3) expect(Math.min(...exact.latentVariance)).toBeLessThan(1e-3);
    }
  });

  it('leave float64 queries bit for bit as they were', () => {
    const queries = engine.syntheticEmbeddings(300, 48, 12).x;
    const exact = scores(5, false, queries),
      fast = scores(5, true, queries);
    expect(Array.from(fast.latentVariance)).toEqual(Array.from(exact.latentVariance));
    expect(Array.from(fast.episteme)).toEqual(Array.from(exact.episteme));
  });

  it('keep the golden cases of float32 inputs within 1e-6', () => {
    const golden = JSON.parse(readFileSync(new URL('../reference/gpp_golden.json', import.meta.url), 'utf8')) as {
      cases: {
        epsilon: number;
        strength: number;
        observations: number[][];
        labels: number[];
        queries: number[][];
        expected: { mean: number[]; var: number[]; judged: number[]; episteme: number[]; alea: number[] };
      }[];
    };
    for (const c of golden.cases) {
      const cols = c.observations[0]?.length ?? c.queries[0].length;
      const probe = engine.fitProbe({
        observations: { data: Float32Array.from(c.observations.flat()), rows: c.observations.length, cols },
        labels: Uint8Array.from(c.labels),
        epsilon: c.epsilon,
        strength: c.strength,
        space: 'weight',
        float32Products: true,
      });
      const r = probe.score({ data: Float32Array.from(c.queries.flat()), rows: c.queries.length, cols });
      probe.dispose();
      const pairs = [
        [r.latentMean, c.expected.mean],
        [r.latentVariance, c.expected.var],
        [r.judgedProbability, c.expected.judged],
        [r.episteme, c.expected.episteme],
        [r.alea, c.expected.alea],
      ] as const;
      for (const [got, want] of pairs) got.forEach((x, i) => expect(Math.abs(x - want[i])).toBeLessThanOrEqual(1e-6));
    }
  });
});
