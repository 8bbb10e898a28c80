// engine.compareRepresentations through the wasm module: every number of the table equals probing each
// embedding alone through the same library (fitProbe on the observation rows, score the other rows,
// leaveOneOut, auroc), the held-out standard errors and the paired tests equal DeLong's definition written
// out here (pairwise placements), to 1e-12; resident and lazily given embeddings give the same result;
// the multi-layer digits demo; progress, cancel and refusals.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  auroc,
  createProbeEngine,
  GpprobeError,
  UNLABELLED,
  type ComparedEmbedding,
  type Matrix,
  type ProbeEngine,
  type RepresentationComparison,
} from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { normals } from '../web/fixtures.ts';

const Z99 = 2.5758293035489004;

/**
 * Newcombe's score-type 99 % interval for an AUROC (his method 5: the theta in [0, 1] with
 * (A - theta)^2 <= z^2 V(theta), V Hanley and McNeil's variance with both group sizes N/2), by bisection, and its
 * hull with DeLong's normal interval clipped to [0, 1]: the interval Compare reports, written out from the paper.
 */
function honestInterval(a: number, se: number, m: number, n: number): { lower: number; upper: number } {
  const half = (m + n) / 2;
  const v = (t: number) => ((t * (1 - t)) / (m * n)) * (1 + (half - 1) * ((1 - t) / (2 - t) + t / (1 + t)));
  const outside = (t: number) => (a - t) ** 2 - Z99 * Z99 * v(t);
  const edge = (inside: number, out: number) => {
    for (let i = 0; i < 200; i++) {
      const mid = (inside + out) / 2;
      if (outside(mid) > 0) out = mid;
      else inside = mid;
    }
    return inside;
  };
  const lower = outside(0) <= 0 ? 0 : edge(a, 0);
  const upper = outside(1) <= 0 ? 1 : edge(a, 1);
  return { lower: Math.min(lower, Math.max(0, a - Z99 * se)), upper: Math.max(upper, Math.min(1, a + Z99 * se)) };
}

/** |actual - expected| <= 1e-12. */
function near(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-12);
}

async function expectRejection(run: Promise<unknown>, code: string, message: string | RegExp): Promise<void> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GpprobeError);
  expect((error as GpprobeError).code).toBe(code);
  if (typeof message === 'string') expect((error as GpprobeError).message).toBe(message);
  else expect((error as GpprobeError).message).toMatch(message);
}
let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

const N = 240;

/** Three embeddings of the same 240 rows: noise (width 6, float64), a weak signal (width 12, float32), a strong one (width 40). */
function layers(): { embeddings: ComparedEmbedding[]; thirds: Uint8Array; odd: Uint8Array } {
  const z = normals(27);
  const thirds = Uint8Array.from({ length: N }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const odd = Uint8Array.from({ length: N }, (_, i) => i % 2);
  for (let i = 0; i < N; i += 17) thirds[i] = UNLABELLED;
  const make = (cols: number, a: number, b: number, f32: boolean): Matrix => {
    const data = f32 ? new Float32Array(N * cols) : new Float64Array(N * cols);
    for (let i = 0; i < N; i++) {
      for (let j = 0; j < cols; j++) {
        data[i * cols + j] = z() + (j === 0 ? a * (i % 3 === 0 ? 1 : -1) : 0) + (j === 1 ? b * (i % 2 ? 1 : -1) : 0);
      }
    }
    return { data, rows: N, cols };
  };
  const ood = { data: Float64Array.from({ length: 30 * 40 }, () => 3 * z() + 2), rows: 30, cols: 40 };
  return {
    thirds,
    odd,
    embeddings: [
      { name: 'layer_0.npy', embeddings: make(6, 0, 0, false) },
      { name: 'layer_1.npy', embeddings: make(12, 0.8, 0.5, true) },
      { name: 'layer_2.npy', embeddings: make(40, 2.5, 1.5, false), ood },
    ],
  };
}

function rowsOf(m: Matrix, rows: ArrayLike<number>): Matrix {
  const data =
    m.data instanceof Float32Array ? new Float32Array(rows.length * m.cols) : new Float64Array(rows.length * m.cols);
  for (let k = 0; k < rows.length; k++) data.set(m.data.subarray(rows[k] * m.cols, (rows[k] + 1) * m.cols), k * m.cols);
  return { data, rows: rows.length, cols: m.cols };
}

/** DeLong's placements of each scorer, from the definition: V over the positives, W over the negatives. */
function delong(labels: Uint8Array, scores: Float64Array[]) {
  const pos: number[] = [],
    neg: number[] = [];
  labels.forEach((y, i) => (y ? pos : neg).push(i));
  const psi = (x: number, y: number) => (x > y ? 1 : x === y ? 0.5 : 0);
  const V = scores.map((s) => pos.map((i) => neg.reduce((a, j) => a + psi(s[i], s[j]), 0) / neg.length));
  const W = scores.map((s) => neg.map((j) => pos.reduce((a, i) => a + psi(s[i], s[j]), 0) / pos.length));
  const cov = (x: number[][], a: number, b: number) => {
    const ma = x[a].reduce((p, q) => p + q, 0) / x[a].length,
      mb = x[b].reduce((p, q) => p + q, 0) / x[b].length;
    return x[a].reduce((sum, v, i) => sum + (v - ma) * (x[b][i] - mb), 0) / (x[a].length - 1);
  };
  const S = (a: number, b: number) => cov(V, a, b) / pos.length + cov(W, a, b) / neg.length;
  const A = V.map((v) => v.reduce((p, q) => p + q, 0) / v.length);
  return {
    A,
    se: (k: number) => Math.sqrt(S(k, k)),
    pair: (a: number, b: number) => ({ d: A[a] - A[b], se: Math.sqrt(Math.max(0, S(a, a) + S(b, b) - 2 * S(a, b))) }),
  };
}

describe('compareRepresentations', () => {
  it("gives every number that probing each embedding alone gives, and DeLong's paired tests", async () => {
    const { embeddings, thirds, odd } = layers();
    const observations = [
      [1, 2, 4, 5, 6, 7, 9, 10, 12, 15, 18, 21, 24, 27, 30, 33],
      [0, 1, 2, 3, 4, 5, 10, 11],
    ];
    const concepts = [
      { name: 'thirds', labels: thirds, observations: observations[0] },
      { name: 'odd', labels: odd, observations: observations[1] },
    ];
    const r = await engine.compareRepresentations({ embeddings, concepts, epsilon: 0.2, strength: 4 });
    expect(r.layers).toEqual({ layered: true, noun: 'layer', numbers: [0, 1, 2] });
    // The threshold: the episteme of one observation, scored at its own point.
    const one = engine.fitProbe({
      observations: { data: Float64Array.of(0.3, -1), rows: 1, cols: 2 },
      labels: Uint8Array.of(1),
      epsilon: 0.2,
      strength: 4,
    });
    const threshold = one.score({ data: Float64Array.of(0.3, -1), rows: 1, cols: 2 }).episteme[0];
    one.dispose();
    near(r.epistemeThreshold, threshold, 'episteme threshold');
    for (const [c, concept] of concepts.entries()) {
      const result = r.concepts[c];
      expect(result.concept).toBe(concept.name);
      expect(Array.from(result.observations)).toEqual(observations[c]);
      expect(result.basis).toBe('heldout');
      const observed = new Set(observations[c]);
      const queries = Array.from({ length: N }, (_, i) => i).filter((i) => !observed.has(i));
      const heldout = queries.filter((i) => concept.labels[i] !== UNLABELLED);
      const heldoutLabels = Uint8Array.from(heldout, (i) => concept.labels[i]);
      const heldoutScores: Float64Array[] = [];
      for (const [k, e] of embeddings.entries()) {
        const x = e.embeddings as Matrix,
          p = result.probes[k];
        const probe = engine.fitProbe({
          observations: rowsOf(x, observations[c]),
          labels: Uint8Array.from(observations[c], (i) => concept.labels[i]),
          epsilon: 0.2,
          strength: 4,
          expectedQueries: N,
        });
        const s = probe.score(rowsOf(x, queries));
        const loo = probe.leaveOneOut();
        const oodScores = e.ood ? probe.score(e.ood as Matrix).oodScore : null;
        probe.dispose();
        const mean = (v: Float64Array) => v.reduce((a, b) => a + b, 0) / v.length;
        const decided = s.judgedProbability.reduce(
          (n, q, i) => n + ((q < 0.1 || q > 0.9) && s.episteme[i] >= r.epistemeThreshold ? 1 : 0),
          0,
        );
        const scores = Float64Array.from(heldout, (i) => s.judgedProbability[queries.indexOf(i)]);
        heldoutScores.push(scores);
        const reference = delong(heldoutLabels, [scores]);
        const observedPositives = observations[c].filter((i) => concept.labels[i] === 1).length;
        const looInterval = honestInterval(
          loo.auroc,
          loo.aurocStandardError,
          observedPositives,
          observations[c].length - observedPositives,
        );
        const expected = {
          width: x.cols,
          looAuroc: loo.auroc,
          looAurocStandardError: loo.aurocStandardError,
          looAurocLower: looInterval.lower,
          looAurocUpper: looInterval.upper,
          looLogLoss: loo.logLoss,
          heldoutRows: heldout.length,
          heldoutAuroc: auroc(engine, heldoutLabels, scores),
          heldoutAurocStandardError: reference.se(0),
          meanJudgedProbability: mean(s.judgedProbability),
          meanEpisteme: mean(s.episteme),
          meanAlea: mean(s.alea),
          decidedFraction: decided / queries.length,
          queries: queries.length,
        };
        for (const [key, value] of Object.entries(expected))
          near(p[key as keyof typeof p] as number, value, `${concept.name} ${e.name} ${key}`);
        expect(p.looVerdict).toBe(loo.verdict);
        if (oodScores) {
          const inside = Uint8Array.from({ length: queries.length + oodScores.length }, (_, i) =>
            i < queries.length ? 1 : 0,
          );
          near(p.oodAuroc, auroc(engine, inside, Float64Array.from([...s.oodScore, ...oodScores])), 'ood auroc');
        } else {
          expect(p.oodAuroc).toBeNaN();
        }
      }
      const reference = delong(heldoutLabels, heldoutScores);
      for (let a = 0; a < 3; a++) {
        for (let b = 0; b < 3; b++) {
          near(result.difference[a * 3 + b], reference.pair(a, b).d, `difference ${a} ${b}`);
          near(result.standardError[a * 3 + b], reference.pair(a, b).se, `standard error ${a} ${b}`);
        }
      }
      expect(result.best).toBe(reference.A.indexOf(Math.max(...reference.A)));
    }
    // Noise does not separate "thirds"; the strong layer holds it best.
    expect(r.concepts[0].probes[0].separates).toBe(false);
    expect(r.concepts[0].best).toBe(2);
    expect(r.concepts[0].sentence).toContain('layer 0 does not separate the concept');
  });

  it("gives the same numbers for resident and lazily given embeddings, and draws the CLI's rows", async () => {
    const { embeddings, thirds } = layers();
    const concepts = [{ name: 'thirds', labels: thirds }];
    const plain = await engine.compareRepresentations({ embeddings, concepts, perClass: 5, seed: 3 });
    const resident = embeddings.map((e) => ({ ...e, embeddings: engine.upload(e.embeddings as Matrix) }));
    const lazy = embeddings.map((e) => ({ ...e, embeddings: async () => e.embeddings as Matrix }));
    try {
      expect(await engine.compareRepresentations({ embeddings: resident, concepts, perClass: 5, seed: 3 })).toEqual(
        plain,
      );
    } finally {
      for (const e of resident) (e.embeddings as { dispose(): void }).dispose();
    }
    expect(await engine.compareRepresentations({ embeddings: lazy, concepts, perClass: 5, seed: 3 })).toEqual(plain);
    // The draw is the core's over the labelled rows: 5 of each class, none unlabelled.
    const rows = plain.concepts[0].observations;
    expect(rows.length).toBe(10);
    expect(Array.from(rows).every((i) => thirds[i] !== UNLABELLED)).toBe(true);
    const labelled = Array.from({ length: N }, (_, i) => i).filter((i) => thirds[i] !== UNLABELLED);
    const compact = engine.drawObservations(
      Uint8Array.from(labelled, (i) => thirds[i]),
      5,
      3,
    );
    expect(Array.from(rows)).toEqual(Array.from(compact, (k) => labelled[k]));
  });

  it('finds closed loops rising from the pixels into the hidden layers of the digits network', async () => {
    const dir = 'web/public/demo/digits_layers/';
    const names = ['layer_0_pixels', 'layer_1_hidden', 'layer_2_hidden', 'layer_3_logits'];
    const embeddings = names.map((name) => {
      const a = parseNpy(readFileSync(`${dir}${name}.npy`), `${name}.npy`);
      return { name: `${name}.npy`, embeddings: { data: a.data, rows: a.shape[0], cols: a.shape[1] } };
    });
    const [header, ...lines] = readFileSync(`${dir}metadata.csv`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const labels = Uint8Array.from(lines, (cells) => Number(cells[header.indexOf('closed_loop')]));
    const stages: string[] = [];
    const r: RepresentationComparison = await engine.compareRepresentations(
      { embeddings, concepts: [{ name: 'closed_loop', labels }], perClass: 32, seed: 0 },
      {
        onProgress: (p) => {
          stages.push(p.stage);
        },
      },
    );
    const c = r.concepts[0];
    const auroc = c.probes.map((p) => p.heldoutAuroc);
    expect(embeddings.map((e) => e.embeddings.data instanceof Float32Array)).toEqual([true, true, true, true]);
    // Every hidden layer beats the pixels, by DeLong's paired test at 99 %; the second hidden layer is best.
    expect(c.best).toBe(2);
    expect(auroc[1]).toBeGreaterThan(auroc[0]);
    expect(c.probes[0].pValueAgainstBest).toBeLessThan(0.01);
    expect(c.probes.every((p) => p.separates)).toBe(true);
    expect(new Set(stages)).toEqual(new Set(names.map((n) => `${n}.npy: closed_loop`)));
  });

  it('stops when cancelled and refuses embeddings of different rows, naming them', async () => {
    const { embeddings, thirds } = layers();
    const concepts = [{ name: 'thirds', labels: thirds }];
    const controller = new AbortController();
    await expectRejection(
      engine.compareRepresentations(
        { embeddings, concepts },
        {
          signal: controller.signal,
          onProgress: () => {
            controller.abort();
          },
        },
      ),
      'cancelled',
      /cancelled/,
    );
    const short = {
      name: 'short.npy',
      embeddings: rowsOf(
        embeddings[1].embeddings as Matrix,
        Array.from({ length: N - 1 }, (_, i) => i),
      ),
    };
    await expectRejection(
      engine.compareRepresentations({ embeddings: [embeddings[0], short], concepts }),
      'dimension_mismatch',
      "embedding 'short.npy' has 239 rows, embedding 'layer_0.npy' has 240 rows; every embedding must hold the same rows",
    );
    await expectRejection(
      engine.compareRepresentations({ embeddings, concepts: [{ name: 'c', labels: thirds, observations: [1, 2] }] }),
      'invalid_argument',
      "concept 'c': the observations need both classes; all 2 are 0",
    );
  });
});
