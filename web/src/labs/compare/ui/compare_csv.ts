// The Compare lab's export as CSV text, in the columns of `gpprobe compare` (its header starts
// embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea): one row
// per (concept, representation), numbers at 17 significant digits as the CLI writes them, undefined
// numbers as empty cells.
import type { RepresentationComparison } from '../../../engine/compare/compare_representations.ts';
import { csvCell, formatDigits17 } from '../../../common/ui/format.ts';

export const COMPARE_CSV_HEADER = [
  'embedding',
  'width',
  'loo_auroc',
  'loo_auroc_lower',
  'loo_auroc_upper',
  'heldout_auroc',
  'mean_episteme',
  'mean_alea',
  'decided_fraction',
  'ood_auroc',
  'heldout_auroc_lower',
  'heldout_auroc_upper',
  'loo_verdict',
  'observations',
  'heldout_rows',
  'queries',
  'separates',
  'p_value_against_best',
  'indistinguishable_from_best',
  'concept',
];

const number = (v: number): string => (Number.isFinite(v) ? formatDigits17(v) : '');

export function compareCsv(comparison: RepresentationComparison): string {
  let text = `${COMPARE_CSV_HEADER.join(',')}\n`;
  for (const c of comparison.concepts) {
    const judged = c.basis !== 'none';
    for (const p of c.probes) {
      text +=
        [
          csvCell(p.name),
          String(p.width),
          number(p.looAuroc),
          number(p.looAurocLower),
          number(p.looAurocUpper),
          number(p.heldoutAuroc),
          number(p.meanEpisteme),
          number(p.meanAlea),
          number(p.decidedFraction),
          number(p.oodAuroc),
          number(p.heldoutAurocLower),
          number(p.heldoutAurocUpper),
          p.looVerdict,
          String(p.observations),
          String(p.heldoutRows),
          String(p.queries),
          judged ? (p.separates ? 'yes' : 'no') : '',
          number(p.pValueAgainstBest),
          judged ? (p.indistinguishableFromBest ? 'yes' : 'no') : '',
          csvCell(c.concept),
        ].join(',') + '\n';
    }
  }
  return text;
}
