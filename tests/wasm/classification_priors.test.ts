// MAP hyperparameter fits through the wasm module and the public TS API, held to the native CLI's
// (tests/reference/classification/priors.json, written by scripts/fixtures/make_classification_prior_reference.sh
// with `gpprobe gpc --optimize --signal-variance-prior P --length-scale-prior Q`): Laplace and EP on the
// Classification lab's first example and the softmax model on the three-blobs demo give the CLI's
// hyperparameters, log marginal likelihood and log prior to 1e-9 relative; the default ("none") is
// maximum likelihood, different from MAP; a prior in a bad form is refused by its name.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClassificationEngine, type ClassificationEngine, type Matrix } from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

interface CliFit {
  signal_variance?: number;
  signal_variances?: number[];
  length_scales: number[] | number[][];
  log_marginal_likelihood: number;
  log_prior: number;
  signal_variance_prior: string;
  length_scale_prior: string;
  restarts: number;
  seed: number;
}
const reference = JSON.parse(
  readFileSync(new URL('../reference/classification/priors.json', import.meta.url), 'utf8'),
) as Record<'laplace' | 'ep' | 'softmax', { flags: string; fit: CliFit }> & {
  signal_variance_prior: string;
  length_scale_prior: string;
};

function readCsv(url: URL): { inputs: Matrix; labels: Float64Array } {
  const rows = readFileSync(url, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map(Number));
  const d = rows[0].length - 1;
  return {
    inputs: { data: Float64Array.from(rows.flatMap((r) => r.slice(0, d))), rows: rows.length, cols: d },
    labels: Float64Array.from(rows.map((r) => r[d])),
  };
}
const blobs = readCsv(new URL('../reference/classification/two_blobs_seed1.csv', import.meta.url));
const three = readCsv(new URL('../../web/public/demo/classification/three_blobs.csv', import.meta.url));

const priors = {
  signalVariancePrior: reference.signal_variance_prior,
  lengthScalePrior: reference.length_scale_prior,
};

function expectRelative(actual: number, expected: number, what: string): void {
  expect(
    Math.abs(actual - expected) / Math.max(1e-300, Math.abs(expected)),
    `${what}: ${actual} vs ${expected}`,
  ).toBeLessThanOrEqual(1e-9);
}

let engine: ClassificationEngine;
beforeAll(async () => {
  engine = await createClassificationEngine();
});

describe("MAP hyperparameter fits equal the CLI's", () => {
  for (const method of ['laplace', 'ep'] as const) {
    it(`${method} (probit) on two-blobs with ${reference.signal_variance_prior} and ${reference.length_scale_prior}`, () => {
      const cli = reference[method].fit;
      expect(cli.signal_variance_prior).toBe(reference.signal_variance_prior);
      expect(cli.length_scale_prior).toBe(reference.length_scale_prior);
      const gpc = engine.optimizeClassifier({
        ...blobs,
        method,
        likelihood: 'probit',
        kernel: { signalVariance: 1, lengthScales: [1, 1] },
        restarts: cli.restarts,
        seed: cli.seed,
        ...priors,
      });
      const s = gpc.state;
      gpc.dispose();
      expectRelative(s.signalVariance, cli.signal_variance!, 'signal variance');
      (cli.length_scales as number[]).forEach((l, j) => expectRelative(s.lengthScales[j], l, `length-scale ${j}`));
      expectRelative(s.logMarginalLikelihood, cli.log_marginal_likelihood, 'log marginal likelihood');
      expectRelative(s.optimization!.logPrior, cli.log_prior, 'log prior');

      // Without a prior: maximum likelihood, another optimum, and a log prior of 0.
      const ml = engine.optimizeClassifier({
        ...blobs,
        method,
        kernel: { signalVariance: 1, lengthScales: [1, 1] },
        restarts: cli.restarts,
        seed: cli.seed,
      });
      expect(ml.state.optimization!.logPrior).toBe(0);
      expect(Math.abs(ml.state.signalVariance - cli.signal_variance!) / cli.signal_variance!).toBeGreaterThan(0.05);
      ml.dispose();
    });
  }

  it('softmax on three-blobs, one kernel for every class', () => {
    const cli = reference.softmax.fit;
    const gpc = engine.optimizeClassifier({
      ...three,
      likelihood: 'softmax',
      kernel: { signalVariance: 1, lengthScales: [1, 1] },
      restarts: cli.restarts,
      seed: cli.seed,
      ...priors,
    });
    const s = gpc.state;
    gpc.dispose();
    expect(s.classes).toBe(3);
    s.kernels.forEach((k, c) => {
      expectRelative(k.signalVariance, cli.signal_variances![c], `class ${c} signal variance`);
      (cli.length_scales as number[][])[c].forEach((l, j) =>
        expectRelative(k.lengthScales[j], l, `class ${c} length-scale ${j}`),
      );
    });
    expectRelative(s.logMarginalLikelihood, cli.log_marginal_likelihood, 'log marginal likelihood');
    expectRelative(s.optimization!.logPrior, cli.log_prior, 'log prior');
  });

  it('refuses a prior in a bad form by its name', () => {
    expectError(
      () => engine.optimizeClassifier({ ...blobs, signalVariancePrior: 'lognormal:0' }),
      'invalid_argument',
      "signalVariancePrior must be none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU (on the log of the parameter), got 'lognormal:0'",
    );
    expectError(
      () => engine.optimizeClassifier({ ...three, likelihood: 'softmax', lengthScalePrior: 'student-t:0,-1,4' }),
      'invalid_argument',
      'lengthScalePrior needs a finite mu and a finite sigma > 0, got mu 0, sigma -1',
    );
  });
});
