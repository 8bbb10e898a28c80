// The evaluation lab's exports as CSV text, in the CLI's formats (gpprobe evaluate --out / --clouds):
// every curve point with its mean and standard deviation over trials, every cloud point, every ROC point.
// Numbers in their shortest exact decimal form.
import type { ExperimentResult } from '../../../engine/evaluation/experiments.ts';
import type { OodMethodResult } from '../../ood/worker/protocol.ts';
import { csvCell } from '../../../common/ui/format.ts';

const line = (cells: (string | number)[]): string => cells.map(csvCell).join(',') + '\n';

/** method,metric,observations,mean,sd,trials: one row per method and observation count it ran at. */
export function curvesCsv(result: ExperimentResult): string {
  let text = line(['method', 'metric', 'observations', 'mean', 'sd', 'trials']);
  for (const c of result.curves) {
    result.observationCounts.forEach((o, j) => {
      if (!Number.isNaN(c.mean[j])) text += line([c.method, c.metric, o, c.mean[j], c.sd[j], result.trials]); // NaN: not run
    });
  }
  return text;
}

/** method,label_probability,observations,row,judged_probability,episteme,alea: the fuzzy experiment's clouds. */
export function cloudsCsv(result: ExperimentResult): string {
  let text = line(['method', 'label_probability', 'observations', 'row', 'judged_probability', 'episteme', 'alea']);
  for (const c of result.clouds) {
    c.rows.forEach((row, i) => {
      text += line([
        c.method,
        c.labelProbability,
        c.observations,
        row,
        c.judgedProbability[i],
        c.episteme[i],
        c.alea[i],
      ]);
    });
  }
  return text;
}

/** method,auroc,false_positive_rate,true_positive_rate,threshold: every ROC point of the methods that ran. */
export function rocCsv(methods: OodMethodResult[]): string {
  let text = line(['method', 'auroc', 'false_positive_rate', 'true_positive_rate', 'threshold']);
  for (const m of methods) {
    if (!('roc' in m)) continue;
    m.roc.thresholds.forEach((t, i) => {
      text += line([
        m.method,
        m.auroc,
        m.roc.falsePositiveRate[i],
        m.roc.truePositiveRate[i],
        Number.isFinite(t) ? t : String(t),
      ]);
    });
  }
  return text;
}
