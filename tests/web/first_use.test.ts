// The small defects a new user met on real data (issue 13), pinned where they are decided: every value of
// a column with its count; "1"/"yes" as the default concept; spreadsheet formulas in exported CSV cells;
// a repeated message shown once with its count; a probability's colour range fixed at [0, 1] and an auto
// range that says at which end it clipped; legend symbols as the plot draws them; legends that wrap
// instead of running off the plot.
import { describe, expect, it } from 'vitest';
import type { ProbeScores } from '../../web/src/engine/probe/probe_engine.ts';
import type { Column } from '../../web/src/io/table.ts';
import { colorDomain } from '../../web/src/common/plots/colors.ts';
import { layout, textWidth } from '../../web/src/common/plots/layout.ts';
import { embeddingMap, mapObservations } from '../../web/src/labs/probe/plots/map_plot.ts';
import { judgedVsEpisteme, observationSymbols, selectionRing } from '../../web/src/labs/probe/plots/measure_plots.ts';
import { messages, notify } from '../../web/src/common/state/engine_tasks.ts';
import { defaultPositive, valueCounts } from '../../web/src/common/state/session.ts';
import { countOf, csvCell } from '../../web/src/common/ui/format.ts';

describe('concept values', () => {
  it('counts every value of a column: text by count then name, numbers ascending', () => {
    const names: Column = {
      name: 'person',
      kind: 'string',
      values: Array.from({ length: 250 }, (_, i) => `p${i % 100}`),
    };
    const counts = valueCounts(names);
    expect(counts.length).toBe(100); // not the first 60
    expect(counts.slice(0, 3)).toEqual([
      { value: 'p0', count: 3 },
      { value: 'p1', count: 3 },
      { value: 'p10', count: 3 },
    ]);
    expect(counts.at(-1)).toEqual({ value: 'p99', count: 2 });
    expect(valueCounts({ name: 'n', kind: 'number', values: Float64Array.from([10, 2, 2, -1]) })).toEqual([
      { value: '-1', count: 1 },
      { value: '2', count: 2 },
      { value: '10', count: 1 },
    ]);
  });

  it('makes 1, true, yes or positive the concept, and says why; else the most common value', () => {
    // 0 comes first in the column and is the more common value: still 1 is the concept.
    expect(defaultPositive({ name: 'smiling', kind: 'number', values: Float64Array.from([0, 0, 0, 1]) })).toEqual({
      value: '1',
      reason: '“1” means yes in a two-valued label column',
      balanced: true,
    });
    expect(defaultPositive({ name: 'ok', kind: 'string', values: ['negative', 'Positive', 'negative'] })!.value).toBe(
      'Positive',
    );
    expect(defaultPositive({ name: 'a', kind: 'string', values: ['dog', 'cat', 'cat'] })).toEqual({
      value: 'cat',
      reason: 'its most common value',
      balanced: true,
    });
    expect(defaultPositive({ name: 'empty', kind: 'string', values: [] })).toBeNull();
  });
});

describe('exports and messages', () => {
  it('keeps spreadsheet formulas in CSV cells as text, and numbers as numbers', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+cmd|x')).toBe("'+cmd|x");
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('cat')).toBe('cat');
    expect(countOf(1, 'metadata column')).toBe('1 metadata column');
    expect(countOf(1797, 'row')).toBe('1,797 rows');
  });

  it('shows an identical message once, with how many times it was said', () => {
    messages.value = [];
    notify('error', 'x.npy: file is empty');
    notify('info', 'loaded');
    notify('error', 'x.npy: file is empty');
    expect(messages.value.map((m) => [m.kind, m.text, m.count])).toEqual([
      ['info', 'loaded', 1],
      ['error', 'x.npy: file is empty', 2],
    ]);
  });
});

describe('plots', () => {
  const n = 200;
  const scores = (judged: (i: number) => number): ProbeScores => ({
    judgedProbability: Float64Array.from({ length: n }, (_, i) => judged(i)),
    episteme: Float64Array.from({ length: n }, (_, i) => -i / n),
    alea: new Float64Array(n).fill(0.3),
    latentMean: new Float64Array(n),
    latentVariance: new Float64Array(n).fill(1),
    knowledge: new Float64Array(n),
    oodScore: new Float64Array(n),
  });

  it('colours a probability over [0, 1] whatever its values; an auto range says where it clipped', () => {
    expect(colorDomain([0.5, 0.55, 0.59], [0, 1])).toEqual({ domain: [0, 1], clipped: { low: false, high: false } });
    const values = Array.from({ length: 1000 }, (_, i) => (i === 999 ? 50 : i / 1000));
    const auto = colorDomain(values);
    expect(auto.domain).toEqual([0.01, 0.989]);
    expect(auto.clipped).toEqual({ low: true, high: true });
    const x = new Float64Array(n),
      y = new Float64Array(n);
    const map = embeddingMap({
      x,
      y,
      explained: [1, 1],
      totalVariance: 2,
      values: scores((i) => 0.9 + i / 5000).judgedProbability,
      valueLabel: 'judged probability',
      valueRange: [0, 1],
      labels: null,
      subset: null,
    });
    expect(map.colorBar!.domain).toEqual([0, 1]);
    const L = layout({ ...map, colorBar: { ...map.colorBar!, clipped: { low: false, high: true } } }, 600, 340);
    expect([L.colorBar!.high, L.colorBar!.low]).toEqual(['≥ 1.00', '0.00']);
  });

  it('draws observations in the legend as on the plot, and wraps a legend wider than the plot', () => {
    const labels = Uint8Array.from({ length: n }, (_, i) => i % 2);
    const s = scores(() => 0.5);
    const spec = judgedVsEpisteme({ scores: s, labels, subset: null }, null);
    const symbols = observationSymbols(labels, [0, 1], s.episteme, s.judgedProbability)
      .filter((m) => m.type === 'symbols')
      .map((m) => m as { shape: string; fill?: string });
    const legendShapes = spec
      .legend!.filter((e) => e.label.endsWith('observation'))
      .map((e) => ({ shape: e.kind, fill: e.fill }));
    expect(legendShapes).toEqual(symbols.map((m) => ({ shape: m.shape, fill: m.fill })));
    // At 300 px the legend needs rows; every entry ends inside the plot.
    const L = layout(spec, 300, 300);
    expect(new Set(L.legend.map((item) => item.y)).size).toBeGreaterThan(1);
    for (const item of L.legend) expect(item.x + 21 + textWidth(item.entry.label)).toBeLessThanOrEqual(300);
    expect(L.top).toBeGreaterThan(Math.max(...L.legend.map((item) => item.y)));
  });

  it('maps streamed embeddings from their sample: says so, and marks only observations with a position', () => {
    // Rows 0-49 are the sample; the others have no map position (NaN), as the worker sends them.
    const x = Float64Array.from({ length: n }, (_, i) => (i < 50 ? i : NaN)),
      y = Float64Array.from(x, (v) => -v);
    const map = embeddingMap({
      x,
      y,
      explained: [1, 1],
      totalVariance: 2,
      values: null,
      valueLabel: '',
      labels: null,
      subset: null,
    });
    expect(map.title).toBe('Embedding map (PCA of a sample of 50 rows)');
    expect(map.x.domain[0]).toBeLessThan(0);
    expect(map.x.domain[1]).toBeGreaterThan(49);
    const labels = Uint8Array.from({ length: n }, (_, i) => i % 2);
    const marks = mapObservations(x, y, labels, [3, 4, 120, 121]) as unknown as { x: number[]; y: number[] }[];
    expect(marks.map((m) => m.x)).toEqual([[3], [4]]);
    expect(selectionRing(x, y, 120)).toEqual([]);
    expect(selectionRing(x, y, 7)).toHaveLength(1);
    const whole = embeddingMap({
      x: Float64Array.from(x, (_, i) => i),
      y,
      explained: [1, 1],
      totalVariance: 2,
      values: null,
      valueLabel: '',
      labels: null,
      subset: null,
    });
    expect(whole.title).toBe('Embedding map (PCA)');
  });
});
