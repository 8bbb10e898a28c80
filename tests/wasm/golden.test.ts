// The golden reference through the built wasm module and the public TS API, in Node.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../../web/src/engine/index.ts';

interface GoldenCase {
  name: string;
  epsilon: number;
  strength: number;
  observations: number[][];
  labels: number[];
  queries: number[][];
  expected: { mean: number[]; var: number[]; judged: number[]; episteme: number[]; alea: number[] };
}

const golden = JSON.parse(readFileSync(new URL('../reference/gpp_golden.json', import.meta.url), 'utf8')) as {
  cases: GoldenCase[];
};

function matrix(rows: number[][], cols: number, Type: Float32ArrayConstructor | Float64ArrayConstructor) {
  return { data: Type.from(rows.flat()), rows: rows.length, cols };
}

function expectClose(actual: Float64Array, expected: number[], tolerance: number, what: string): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((value, i) => {
    expect(Math.abs(value - expected[i]), `${what}[${i}] = ${value}, expected ${expected[i]}`).toBeLessThanOrEqual(
      tolerance,
    );
  });
}

function expectGolden(r: ProbeScores, c: GoldenCase, tolerance: number): void {
  expectClose(r.latentMean, c.expected.mean, tolerance, `${c.name} latentMean`);
  expectClose(r.latentVariance, c.expected.var, tolerance, `${c.name} latentVariance`);
  expectClose(r.judgedProbability, c.expected.judged, tolerance, `${c.name} judgedProbability`);
  expectClose(r.episteme, c.expected.episteme, tolerance, `${c.name} episteme`);
  expectClose(r.alea, c.expected.alea, tolerance, `${c.name} alea`);
}

// Both SIMD builds (load_module.ts): the relaxed twin (fused multiply-adds; the suite runs Node with
// relaxed SIMD, as Chromium has it) and the plain one every engine runs.
const BUILDS = [
  { simd: 'relaxed', backend: 'wasm-relaxed-simd' },
  { simd: 'simd128', backend: 'wasm-simd128' },
] as const;

for (const build of BUILDS) {
  describe(`golden reference through wasm (${build.simd})`, () => {
    let engine: ProbeEngine;
    beforeAll(async () => {
      engine = await createProbeEngine({ simd: build.simd });
    });

    it(`runs the ${build.backend} build`, () => {
      expect(engine.backend).toBe(build.backend);
    });

    for (const c of golden.cases) {
      for (const space of ['function', 'weight'] as const) {
        it(`${c.name} (${space} space, float64) to 1e-8`, () => {
          const d = c.queries[0].length;
          const probe = engine.fitProbe({
            observations: matrix(c.observations, d, Float64Array),
            labels: Uint8Array.from(c.labels),
            epsilon: c.epsilon,
            strength: c.strength,
            space,
          });
          try {
            expect(probe.space).toBe(space);
            expect(probe.observationCount).toBe(c.labels.length);
            const r = probe.score(matrix(c.queries, d, Float64Array));
            expectGolden(r, c, 1e-8);
            const twoV = 2 * Math.log1p(1 / c.epsilon);
            expectClose(
              r.knowledge,
              c.expected.var.map((v) => 1 - v / twoV),
              1e-8,
              'knowledge',
            );
            expectClose(
              r.oodScore,
              c.expected.var.map((v) => -v),
              1e-8,
              'oodScore',
            );
          } finally {
            probe.dispose();
          }
        });
      }

      it(`${c.name} (float32 inputs) to 1e-6`, () => {
        const d = c.queries[0].length;
        const probe = engine.fitProbe({
          observations: matrix(c.observations, d, Float32Array),
          labels: Uint8Array.from(c.labels),
          epsilon: c.epsilon,
          strength: c.strength,
        });
        try {
          expectGolden(probe.score(matrix(c.queries, d, Float32Array)), c, 1e-6);
        } finally {
          probe.dispose();
        }
      });
    }
  });
}
