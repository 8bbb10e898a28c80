// The OOD comparison's ROC curves: one per method that ran, styled as everywhere the methods are shown.
import { NEUTRAL } from '../../../common/plots/colors.ts';
import { methodStyle } from '../../../common/plots/methods.ts';
import type { LegendEntry, Mark, PlotSpec } from '../../../common/plots/plot_model.ts';
import type { OodMethodResult } from '../worker/protocol.ts';

/** ROC curves of the methods that ran (in-distribution = positive). */
export function rocPlot(methods: OodMethodResult[], title: string): PlotSpec {
  const marks: Mark[] = [{ type: 'line', x: [0, 1], y: [0, 1], color: NEUTRAL, width: 1, dash: [3, 3] }];
  const legend: LegendEntry[] = [];
  for (const m of methods) {
    if (!('roc' in m)) continue;
    const { color, label } = methodStyle(m.method);
    marks.push({
      type: 'line',
      x: m.roc.falsePositiveRate,
      y: m.roc.truePositiveRate,
      color,
      width: m.method === 'gpp' ? 2.4 : 1.5,
    });
    legend.push({ label, color, kind: 'line' });
  }
  return {
    title,
    marks,
    legend,
    x: { label: 'false positive rate (OOD rows taken as in-distribution)', domain: [0, 1] },
    y: { label: 'true positive rate', domain: [0, 1.01] },
  };
}
