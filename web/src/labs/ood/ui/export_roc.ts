// The OOD comparison's export as CSV text, in the CLI's format (gpprobe baseline --roc): every ROC point of
// every method that ran. Numbers in their shortest exact decimal form.
import { csvLine as line } from '../../../common/ui/format.ts';
import type { OodMethodResult } from '../worker/protocol.ts';

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
