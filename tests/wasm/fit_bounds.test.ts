// The optimisers' box, as the labs state it (common/state/fit_bounds.ts), held to the core: a fit whose
// evidence keeps rising past a bound stops exactly on it. EP's signal variance on separable classes runs
// into the upper bound; a regression on one exact RBF bump drives the noise variance into the lower one.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createClassificationEngine,
  createRegressionEngine,
  type ClassificationEngine,
  type RegressionEngine,
} from '../../web/src/engine/index.ts';
import { atBound, boundNotes, FIT_BOUNDS } from '../../web/src/common/state/fit_bounds.ts';

let gpc: ClassificationEngine, gpr: RegressionEngine;
beforeAll(async () => {
  gpc = await createClassificationEngine();
  gpr = await createRegressionEngine();
});

describe('the bounds of a hyperparameter fit', () => {
  it('EP on separable classes: the signal variance stops at the upper bound, and the labs say so', () => {
    const fit = gpc.optimizeClassifier({
      inputs: { data: Float64Array.of(-2, -1, 1, 2), rows: 4, cols: 1 },
      labels: Uint8Array.of(0, 0, 1, 1),
      method: 'ep',
      kernel: { signalVariance: 1, lengthScales: [1] },
    });
    const s = fit.state;
    fit.dispose();
    expect(Math.abs(s.signalVariance - FIT_BOUNDS.upper) / FIT_BOUNDS.upper).toBeLessThan(1e-12);
    expect(atBound(s.signalVariance)).toBe('upper');
    expect(atBound(s.lengthScales[0])).toBe(null);
    expect(
      boundNotes([
        ['signal variance', s.signalVariance],
        ['length-scale', s.lengthScales[0]],
      ]),
    ).toEqual(["signal variance stopped at the fit's upper bound 1e5"]);
  });

  it('a regression on one exact RBF bump (no noise): the noise variance stops at the lower bound', () => {
    const x = Float64Array.from({ length: 12 }, (_, i) => i / 2);
    const fit = gpr.optimize({
      x: { data: x, rows: 12, cols: 1 },
      y: x.map((v) => Math.exp(-((v - 2) ** 2) / 18)),
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': 3 } },
      noiseVariance: 0.1,
      fixed: ['constant.value'],
    });
    const noise = fit.state.noiseVariance;
    fit.dispose();
    expect(Math.abs(noise - FIT_BOUNDS.lower) / FIT_BOUNDS.lower).toBeLessThan(1e-9);
    expect(boundNotes([['noise_variance', noise]])).toEqual(["noise_variance stopped at the fit's lower bound 1e-5"]);
  });
});
