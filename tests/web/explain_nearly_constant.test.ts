// Features nearly constant in training (issue 34, item 1): off their most common training value in at
// least 1 and fewer than max(2, share × n) rows (the core's training_variation). The engine leaves them out
// of the ranking and writes them in the CLI's two new columns; the Classification tab's Explain hatches
// them on the heat map and leaves them out of its colour scale, as the constant ones, unless included.
// Hand-made values: the scale is the largest |value| of the other cells, 0.2, not the nearly constant 0.9.
import { describe, expect, it } from 'vitest';
import {
  EXPLAIN_CSV_HEADER,
  EXPLAIN_DEFAULTS,
  explainSettings,
  explanationCsv,
  rankFeatures,
  type Explanation,
} from '../../web/src/engine/explain/explain.ts';
import { figuresOf } from '../../web/src/labs/classification/ui/ExplainPanel.tsx';
import type { ExplainResult } from '../../web/src/labs/classification/state/explain_store.ts';

const f = (...v: number[]) => Float64Array.from(v);

/** One point, four features (a 2 × 2 image): feature 1 varies in 3 training rows (nearly constant), feature 3 in
 * none (constant). */
const e = {
  features: [0, 1, 2, 3],
  points: 1,
  values: f(0.6),
  deltaLower: f(0.15, -0.95, -0.12, 0.01),
  delta: f(0.2, -0.9, -0.1, 0.02),
  deltaUpper: f(0.25, -0.85, -0.08, 0.03),
  meanDeltaLower: f(0.15, -0.95, -0.12, 0.01),
  meanDelta: f(0.2, -0.9, -0.1, 0.02),
  meanDeltaUpper: f(0.25, -0.85, -0.08, 0.03),
  constantInTraining: [false, false, false, true],
  nearlyConstantInTraining: [false, true, false, false],
  varyingRows: f(140, 3, 97, 0),
  lime: new Float64Array(0),
  limeIntercept: new Float64Array(0),
  limeScore: new Float64Array(0),
  limeKernelWidth: 0,
  unconverged: 0,
} as Explanation;

describe('features nearly constant in training', () => {
  it('pass the share to the core (0.02 by default)', () => {
    expect(EXPLAIN_DEFAULTS.nearlyConstantShare).toBe(0.02);
    expect(explainSettings({ gamma: 0.1 }).nearlyConstantShare).toBe(0.02);
    expect(explainSettings({ gamma: 0.1, nearlyConstantShare: 0 }).nearlyConstantShare).toBe(0);
  });

  it("are left out of the ranking unless asked, and marked with their count in the CLI's columns", () => {
    expect(rankFeatures(e)).toEqual([0, 2]);
    expect(rankFeatures(e, 0, true)).toEqual([1, 0, 2, 3]);
    expect(EXPLAIN_CSV_HEADER).toBe(
      'feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,varying_rows',
    );
    expect(explanationCsv(e).split('\n').slice(1, 5)).toEqual([
      '0,0.15,0.2,0.25,,1,no,no,140',
      '1,-0.95,-0.9,-0.85,,,no,yes,3',
      '2,-0.12,-0.1,-0.08,,2,no,no,97',
      '3,0.01,0.02,0.03,,,yes,no,0',
    ]);
  });

  it("are hatched on the app's heat map and left out of its colour scale unless included", () => {
    const r = {
      kind: 'local',
      model: null,
      modelName: 'Laplace',
      classIndex: null,
      settings: { gamma: 0.25, index: 0, globalPoints: 20, limeSamples: 0, tolerance: 1e-3, nearlyConstantShare: 0.02 },
      points: f(0.5, 0.1, 0.7, 0),
      indices: [0],
      image: 2,
      explanation: e,
      seconds: 0,
    } as unknown as ExplainResult;
    const texts = (fig: { shapes: { kind: string; text?: string }[] }) =>
      fig.shapes.flatMap((s) => (s.kind === 'text' ? [s.text] : [])).join(' ');
    const lines = (fig: { shapes: { kind: string }[] }) => fig.shapes.filter((s) => s.kind === 'line').length;
    const apart = figuresOf(r, ['a', 'b', 'c', 'd']).delta;
    // Two hatched cells (the nearly constant and the constant one), 7 lines each; the scale's ends ±0.2.
    expect(lines(apart)).toBe(14);
    expect(texts(apart)).toMatch(/0\.20/);
    expect(texts(apart)).not.toMatch(/0\.90/);
    const included = figuresOf(r, ['a', 'b', 'c', 'd'], true).delta;
    expect(lines(included)).toBe(0);
    expect(texts(included)).toMatch(/0\.90/);
  });
});
