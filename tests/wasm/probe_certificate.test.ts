// Certified bounds of the probe through the wasm module and the public TS API, in Node:
//  - the same numbers as `gpprobe probe --certify-gamma` natively for the same probe and queries (single-set
//    bounds over an L∞ box, and an L2 ball on three coordinates with branch and bound), to 1e-9;
//  - sound: 2,000 queries sampled in each set, scored by the same probe, all inside the bounds, and the
//    witnesses in the set scoring exactly the reported lowest/highest found;
//  - progress and cancel of the search; bad inputs named.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createProbeEngine,
  GpprobeError,
  type Matrix,
  type Probe,
  type ProbeCertificate,
  type ProbeEngine,
} from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

const D = 8,
  O = 30,
  Q = 4;
let engine: ProbeEngine;
let probe: Probe;
let observations: Matrix, queries: Matrix, labels: Uint8Array;

beforeAll(async () => {
  engine = await createProbeEngine();
  const data = engine.syntheticEmbeddings(O + Q, D, 13);
  observations = { data: data.x.data.slice(0, O * D), rows: O, cols: D };
  queries = { data: data.x.data.slice(O * D), rows: Q, cols: D };
  labels = data.labels.slice(0, O);
  probe = engine.fitProbe({ observations, labels });
});

const row = (m: Matrix, i: number) => Float64Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols));
const csv = (m: Matrix) =>
  Array.from({ length: m.rows }, (_, i) => Array.from(row(m, i), String).join(',')).join('\n') + '\n';

/** `gpprobe probe` on the same observations and queries with `flags`: one record per query. */
function cli(flags: string[]): Record<string, string>[] {
  const dir = mkdtempSync(join(tmpdir(), 'gpprobe-certify-'));
  writeFileSync(join(dir, 'obs.csv'), csv(observations));
  writeFileSync(join(dir, 'labels.txt'), Array.from(labels).join('\n') + '\n');
  writeFileSync(join(dir, 'queries.csv'), csv(queries));
  const out = execFileSync(
    'build/native/gpprobe',
    [
      'probe',
      '--observations',
      join(dir, 'obs.csv'),
      '--labels',
      join(dir, 'labels.txt'),
      '--queries',
      join(dir, 'queries.csv'),
      ...flags,
    ],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n');
  const names = out[0].split(',');
  return out.slice(1).map((line) => Object.fromEntries(line.split(',').map((cell, k) => [names[k], cell])));
}

const SETTINGS = [
  { name: 'an L∞ box on every coordinate', flags: ['--certify-gamma', '0.3'], options: { gamma: 0.3 } },
  {
    name: 'an L2 ball on three coordinates, with branch and bound',
    flags: ['--certify-gamma', '0.8', '--norm', '2', '--certify-dims', '1,4,6', '--tolerance', '0.001'],
    options: { gamma: 0.8, norm: '2' as const, dims: [1, 4, 6], tolerance: 0.001 },
  },
];

function near(a: number, e: number, what: string): void {
  expect(Math.abs(a - e), `${what}: ${a} vs ${e}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(e)));
}

describe("the probe's certificate", () => {
  for (const s of SETTINGS) {
    it(`equals the native CLI's: ${s.name}`, () => {
      const rows = cli(s.flags);
      expect(rows).toHaveLength(Q);
      rows.forEach((r, q) => {
        const c = probe.certify(row(queries, q), s.options);
        const pairs: [number, string][] = [
          [c.judgedProbability, 'judged_probability'],
          [c.judgedProbabilityBounds.lower, 'judged_probability_lower'],
          [c.judgedProbabilityBounds.upper, 'judged_probability_upper'],
          [c.lowestFound, 'judged_probability_lowest_found'],
          [c.highestFound, 'judged_probability_highest_found'],
          [c.latentMean.lower, 'latent_mean_lower'],
          [c.latentMean.upper, 'latent_mean_upper'],
          [c.latentVariance.lower, 'latent_variance_lower'],
          [c.latentVariance.upper, 'latent_variance_upper'],
          [c.episteme.lower, 'episteme_lower'],
          [c.episteme.upper, 'episteme_upper'],
        ];
        for (const [value, column] of pairs) near(value, Number(r[column]), `query ${q} ${column}`);
        expect([c.verdictCanFlip, c.status, String(c.iterations)]).toEqual([
          r.verdict_can_flip,
          r.certify_status,
          r.certify_iterations,
        ]);
      });
    });

    it(`holds at 2,000 sampled queries of each set, and at its witnesses: ${s.name}`, () => {
      let seed = 7;
      const uniform = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
      const moving = s.options.dims ?? Array.from({ length: D }, (_, j) => j);
      for (let q = 0; q < Q; q++) {
        const c = probe.certify(row(queries, q), s.options);
        const a = row(queries, q),
          n = 2000;
        const samples = new Float64Array(n * D);
        for (let i = 0; i < n; i++) {
          samples.set(a, i * D);
          const o = moving.map(() => uniform());
          const length = Math.hypot(...o);
          moving.forEach((j, k) => {
            // Box: corners (every other sample) and the inside; ball: its surface and the inside.
            const offset =
              s.options.norm === '2'
                ? (o[k] / length) * (i % 2 ? 1 : Math.abs(uniform()))
                : i % 2
                  ? Math.sign(o[k])
                  : o[k];
            samples[i * D + j] += s.options.gamma * offset;
          });
        }
        const scores = probe.score({ data: samples, rows: n, cols: D });
        const inside = (values: Float64Array, bounds: { lower: number; upper: number }) =>
          values.every((v) => v >= bounds.lower && v <= bounds.upper);
        expect(inside(scores.judgedProbability, c.judgedProbabilityBounds), `query ${q} judged`).toBe(true);
        expect(inside(scores.latentMean, c.latentMean), `query ${q} mean`).toBe(true);
        expect(inside(scores.latentVariance, c.latentVariance), `query ${q} variance`).toBe(true);
        expect(inside(scores.episteme, c.episteme), `query ${q} episteme`).toBe(true);
        expect(Math.min(...scores.judgedProbability)).toBeGreaterThanOrEqual(c.judgedProbabilityBounds.lower);
        expectWitnesses(c, a, moving, s.options);
      }
    });
  }

  function expectWitnesses(
    c: ProbeCertificate,
    a: Float64Array,
    moving: number[],
    o: { gamma: number; norm?: '2' },
  ): void {
    for (const [witness, found] of [
      [c.lowestWitness, c.lowestFound],
      [c.highestWitness, c.highestFound],
    ] as const) {
      expect(witness.length).toBe(D);
      const offsets = Array.from(witness, (v, j) => v - a[j]);
      offsets.forEach((v, j) => {
        if (!moving.includes(j)) expect(v).toBe(0);
      });
      if (o.norm === '2') expect(Math.hypot(...offsets)).toBeLessThanOrEqual(o.gamma * (1 + 1e-12));
      else offsets.forEach((v) => expect(Math.abs(v)).toBeLessThanOrEqual(o.gamma * (1 + 1e-12)));
      near(probe.score({ data: witness, rows: 1, cols: D }).judgedProbability[0], found, 'witness');
    }
  }

  it("reports the search's progress and stops on cancel with a valid certificate", () => {
    const options = { gamma: 3, norm: '2' as const, dims: [0, 2, 5], tolerance: 1e-6 };
    const full = probe.certify(row(queries, 0), options);
    expect(full.iterations).toBeGreaterThan(10);
    const seen: number[] = [];
    const c = probe.certify(row(queries, 0), {
      ...options,
      onProgress: (p) => {
        seen.push(p.done);
        return p.done < 5;
      },
    });
    expect(c.status).toBe('cancelled');
    expect(seen.at(-1)).toBe(5);
    expect(c.judgedProbabilityBounds.lower).toBeLessThanOrEqual(full.lowestFound);
    expect(c.judgedProbabilityBounds.upper).toBeGreaterThanOrEqual(full.highestFound);
    expect(c.lowestFound).toBeGreaterThanOrEqual(full.judgedProbabilityBounds.lower);
  });

  it('certifies huge queries like their direction, or refuses them with the reason (issue 23)', () => {
    // The probe: (1, 0) labelled 0, (0, 1) labelled 1. A query 1e160 (1, 0) scores 0.0297 (its
    // direction's value); its certificate overflowed (0 at the query, a range excluding 0.0297, NaN at 1e308).
    const small = engine.fitProbe({
      observations: { data: Float64Array.of(1, 0, 0, 1), rows: 2, cols: 2 },
      labels: Uint8Array.of(0, 1),
    });
    try {
      for (const c of [1e160, 1e308]) {
        const query = Float64Array.of(c, 0);
        const scored = small.score({ data: query, rows: 1, cols: 2 });
        expect(scored.judgedProbability[0]).toBeCloseTo(0.0297, 3);
        for (const norm of ['inf', '2'] as const) {
          const cert = small.certify(query, { gamma: 0.1, norm });
          expect(Math.abs(cert.judgedProbability - scored.judgedProbability[0])).toBeLessThan(1e-12);
          expect(cert.judgedProbabilityBounds.lower).toBeLessThanOrEqual(scored.judgedProbability[0]);
          expect(cert.judgedProbabilityBounds.upper).toBeGreaterThanOrEqual(scored.judgedProbability[0]);
          expect(cert.judgedProbabilityBounds.upper - cert.judgedProbabilityBounds.lower).toBeLessThan(1e-9);
          expect(cert.latentMean.lower).toBeLessThanOrEqual(scored.latentMean[0]);
          expect(cert.latentMean.upper).toBeGreaterThanOrEqual(scored.latentMean[0]);
          expect(cert.verdictCanFlip).toBe('no');
        }
      }
      const refused = (query: Float64Array, gamma: number, message: RegExp) => {
        let error: unknown;
        try {
          small.certify(query, { gamma });
        } catch (e) {
          error = e;
        }
        expect(error).toBeInstanceOf(GpprobeError);
        expect((error as GpprobeError).code).toBe('invalid_argument');
        expect((error as GpprobeError).message).toMatch(message);
      };
      refused(Float64Array.of(1e308, 0), 1e308, /^the set around the query reaches beyond the largest finite number/);
      refused(Float64Array.of(1e160, 0), 1e160, /comes within 2\^-32 of its size of the origin/);
    } finally {
      small.dispose();
    }
  });

  it('names bad inputs and keeps the module whole', () => {
    const a = row(queries, 0);
    expectError(
      () => probe.certify(a, { gamma: -1 }),
      'invalid_argument',
      'gamma must be a finite number >= 0, got -1',
    );
    expectError(
      () => probe.certify(a, { gamma: 0.1, dims: [8] }),
      'invalid_argument',
      'coordinate 8 is out of range: queries have 8 columns (coordinates 0 to 7)',
    );
    expectError(
      () => probe.certify(a, { gamma: 0.1, norm: '1' as '2' }),
      'invalid_argument',
      "norm must be inf or 2, got '1'",
    );
    expectError(
      () => probe.certify(a.subarray(0, 3), { gamma: 0.1 }),
      'dimension_mismatch',
      "the query has 3 columns, the probe's observations have 8",
    );
    expectError(
      () => probe.certify(Float64Array.of(NaN, 0, 0, 0, 0, 0, 0, 0), { gamma: 0.1 }),
      'non_finite',
      'the query entry 0 is NaN',
    );
    expectError(
      () => probe.certify([0, 1] as unknown as Float64Array, { gamma: 0.1 }),
      'invalid_argument',
      'the query must be a Float32Array or Float64Array',
    );
    // float32 queries are widened: the same certificate as the float64 copy of the same values.
    const f32 = Float32Array.from(a);
    expect(probe.certify(f32, { gamma: 0.2 })).toEqual(probe.certify(Float64Array.from(f32), { gamma: 0.2 }));
  });
});
