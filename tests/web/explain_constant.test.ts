// Features constant in training in the app's Δ maps and rankings (issue 34, item 1): hatched on the heat
// map and left out of its colour scale (so a blank border pixel with a large Δ neither takes the scale's end
// nor looks like evidence), and left out of the Probe tab's "which dimensions matter" unless included.
// Hand-made values: the scale is the largest |value| of the other cells, 0.2, not the constant one's 0.9.
import { describe, expect, it } from 'vitest';
import type { Explanation } from '../../web/src/engine/explain/explain.ts';
import { heatMap } from '../../web/src/labs/classification/plots/explain_plots.ts';
import { topDimensions } from '../../web/src/labs/probe/state/explain_store.ts';

describe('features constant in training', () => {
  it('are hatched on the heat map and left out of its colour scale', () => {
    const values = [0.9, 0.2, -0.1, 0.05];
    const hatched = [true, false, false, false];
    const plain = heatMap(values, 2, 'Δ');
    const marked = heatMap(values, 2, 'Δ', { hatched });
    const texts = (f: ReturnType<typeof heatMap>) =>
      f.shapes.flatMap((s) => (s.kind === 'text' ? [s.text] : [])).join(' ');
    // The legend's ends: ±0.9 without the marking, ±0.2 with it.
    expect(texts(plain)).toMatch(/0\.9/);
    expect(texts(marked)).not.toMatch(/0\.9/);
    expect(texts(marked)).toMatch(/0\.2/);
    // The constant cell (row 0, column 0) is grey and crossed by diagonal lines; the others are not.
    const lines = marked.shapes.filter((s) => s.kind === 'line');
    expect(lines.length).toBe(7);
    expect(plain.shapes.filter((s) => s.kind === 'line').length).toBe(0);
    const cells = marked.shapes.filter((s) => s.kind === 'rect' && s.w === 24 && s.h === 24);
    expect(cells.length).toBe(4);
    expect(cells[0].kind === 'rect' && cells[0].fill).toBe('#eeeeee');
  });

  it("are left out of the Probe tab's ranking of dimensions unless included", () => {
    const e = {
      features: [0, 1, 2],
      points: 1,
      values: Float64Array.of(0.5),
      deltaLower: Float64Array.of(0.3, 0.01, 0.1),
      delta: Float64Array.of(0.35, 0.02, 0.12),
      deltaUpper: Float64Array.of(0.4, 0.03, 0.15),
      meanDeltaLower: Float64Array.of(0.3, 0.01, 0.1),
      meanDelta: Float64Array.of(0.35, 0.02, 0.12),
      meanDeltaUpper: Float64Array.of(0.4, 0.03, 0.15),
      constantInTraining: [true, false, false],
      lime: new Float64Array(0),
      limeIntercept: new Float64Array(0),
      limeScore: new Float64Array(0),
      limeKernelWidth: 0,
      unconverged: 0,
    } as unknown as Explanation;
    expect(topDimensions(e, 3).delta.map((r) => r.dimension)).toEqual([2, 1]);
    expect(topDimensions(e, 3, true).delta.map((r) => r.dimension)).toEqual([0, 2, 1]);
  });
});
