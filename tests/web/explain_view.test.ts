// The explain panels' pure parts: the engine's ranking of features by certified |Δ| and its CSV (the
// header and number forms of `gpprobe explain`), the probe panel's top k and interval text, the
// classification panel's image detection and global points, and the plots' colour scale.
import { describe, expect, it } from 'vitest';
import {
  EXPLAIN_CSV_HEADER,
  explanationCsv,
  rankFeatures,
  type Explanation,
} from '../../web/src/engine/explain/explain.ts';
import { topDimensions } from '../../web/src/labs/probe/state/explain_store.ts';
import { intervalText } from '../../web/src/labs/probe/ui/DimensionsPanel.tsx';
import { globalIndices } from '../../web/src/labs/classification/state/explain_store.ts';
import { mostPredicted } from '../../web/src/labs/classification/worker/explain_handlers.ts';
import {
  beside,
  diverging,
  heatMap,
  imageSide,
  scaleOf,
} from '../../web/src/labs/classification/plots/explain_plots.ts';

const f = (...v: number[]) => Float64Array.from(v);

/** Two points, three features (5, 0, 2). */
const e: Explanation = {
  features: [5, 0, 2],
  points: 2,
  values: f(0.7, 0.4),
  deltaLower: f(-0.02, 0.01, -0.05, 0, 0, 0),
  delta: f(0.01, 0.02, -0.04, 0, 0, 0),
  deltaUpper: f(0.03, 0.03, -0.03, 0, 0, 0),
  meanDeltaLower: f(-0.01, 0.005, -0.025),
  meanDelta: f(0.005, 0.01, -0.02),
  meanDeltaUpper: f(0.015, 0.015, -0.015),
  constantInTraining: [false, false, false],
  nearlyConstantInTraining: [false, false, false],
  varyingRows: f(9, 9, 9),
  lime: f(0.2, -0.1, 0.05, 0.4, 0, -0.2),
  limeIntercept: f(0.1, 0.2),
  limeScore: f(0.9, 0.8),
  limeKernelWidth: 1.3,
  unconverged: 0,
};

describe('ranking and export', () => {
  it('orders features by how far their certified interval sits from 0, then by reach', () => {
    // Feature 2 (interval [-0.05, -0.03]: at least 0.03 from 0), then 0 ([0.01, 0.03]: 0.01), then 5 (holds 0).
    expect(rankFeatures(e)).toEqual([2, 1, 0]);
  });

  it('leaves features constant in training out of the ranking unless asked', () => {
    const c: Explanation = { ...e, constantInTraining: [false, false, true] };
    expect(rankFeatures(c)).toEqual([1, 0]);
    expect(rankFeatures(c, 0, true)).toEqual([2, 1, 0]);
    expect(explanationCsv(c).split('\n')[3]).toBe('2,-0.05,-0.04,-0.03,0.05,,yes,no,9');
    expect(explanationCsv(c, 0, true).split('\n')[3]).toBe('2,-0.05,-0.04,-0.03,0.05,1,yes,no,9');
  });

  it("writes the CLI's header and one row per feature, in shortest exact form", () => {
    expect(explanationCsv(e)).toBe(
      `${EXPLAIN_CSV_HEADER}\n5,-0.02,0.01,0.03,0.2,3,no,no,9\n0,0.01,0.02,0.03,-0.1,2,no,no,9\n2,-0.05,-0.04,-0.03,0.05,1,no,no,9\n`,
    );
    // The means, with LIME's mean coefficient per feature ((0.2 + 0.4) / 2, (-0.1 + 0) / 2, (0.05 - 0.2) / 2).
    const rows = explanationCsv(e, 'mean')
      .trim()
      .split('\n')
      .slice(1)
      .map((r) => r.split(',').map(Number));
    expect(rows.map((r) => r[4])).toEqual([0.30000000000000004, -0.05, -0.07500000000000001]);
    expect(rows.map((r) => r[2])).toEqual([0.005, 0.01, -0.02]);
  });
});

describe('the probe panel', () => {
  it("lists the top k by certified |Δ| and by |LIME| with LIME's rank", () => {
    const top = topDimensions(e, 2);
    expect(top.delta.map((r) => r.dimension)).toEqual([2, 0]);
    expect(top.lime.map((r) => [r.dimension, r.limeRank])).toEqual([
      [5, 1],
      [0, 2],
    ]);
  });

  it('shows an interval with the digits that tell its ends apart', () => {
    expect(intervalText(-0.0080012, -0.0079987)).toBe('[-0.008001, -0.007999]');
    expect(intervalText(0.5, 0.75)).toBe('[0.500, 0.750]');
    expect(intervalText(0.123456, 0.123457)).toBe('[0.123456, 0.123457]');
  });
});

describe('the classification panel', () => {
  it('spreads M global points over the rows', () => {
    expect(globalIndices(200, 5)).toEqual([0, 40, 80, 120, 160]);
    expect(globalIndices(3, 10)).toEqual([0, 1, 2]);
  });

  it('sees square images and scales colours to the largest |value|', () => {
    expect(imageSide(64)).toBe(8);
    expect(imageSide(196)).toBe(14);
    expect(imageSide(11)).toBeNull();
    expect(scaleOf([0.1, -0.4, 0.2])).toBe(0.4);
    expect(scaleOf([0, 0])).toBe(1);
    expect(diverging(0)).toBe('rgb(255,255,255)');
    expect(diverging(1)).toBe('rgb(255,40,40)');
    expect(diverging(-1)).toBe('rgb(40,90,255)');
  });

  it('lays out a heat map cell per pixel and figures side by side', () => {
    const map = heatMap(new Float64Array(16).fill(0.5), 4, 'Δ');
    const cells = map.shapes.filter((s) => s.kind === 'rect' && s.w === 24 && s.h === 24);
    expect(cells.length).toBe(16);
    const both = beside([map, map], 10);
    expect(both.width).toBe(2 * map.width + 10);
    expect(both.shapes.length).toBe(2 * map.shapes.length);
  });
});

describe("the softmax model's class explained over M points", () => {
  it('is the class predicted at most of them, the lowest index on ties', () => {
    // Four points, three classes: predicted 1, 2, 1, 0.
    const p = f(0.2, 0.5, 0.3, 0.1, 0.2, 0.7, 0.3, 0.4, 0.3, 0.6, 0.3, 0.1);
    expect(mostPredicted(p, 4, 3)).toBe(1);
    // The first two points only: one vote each for 1 and 2 -> 1.
    expect(mostPredicted(p.subarray(0, 6), 2, 3)).toBe(1);
    // The last point only: class 0.
    expect(mostPredicted(p.subarray(9), 1, 3)).toBe(0);
  });
});
