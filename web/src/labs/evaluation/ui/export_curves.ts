// The evaluation lab's exports as CSV text, in the CLI's formats (gpprobe evaluate --out / --clouds):
// every curve point with its mean and standard deviation over trials, every cloud point.
// Numbers in their shortest exact decimal form.
import type { ExperimentResult } from '../../../engine/evaluation/experiments.ts';
import { csvLine as line } from '../../../common/ui/format.ts';

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
