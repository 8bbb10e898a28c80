// The Compare lab's export as CSV text, in the columns of `gpprobe compare` (its header starts
// embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea): one row
// per (concept, representation), numbers at 17 significant digits as the CLI writes them, undefined
// numbers as empty cells. After `concept`, as `gpprobe compare --draws R` writes them: below_half, the
// draws and the draw_ columns (each representation over the draws of the observations; empty without draws).
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
  'below_half',
  'draws',
  'draw_mean_auroc',
  'draw_sd_auroc',
  'draw_min_auroc',
  'draw_max_auroc',
  'draw_auroc_lower',
  'draw_auroc_upper',
  'draw_difference_from_best',
  'draw_p_value_against_best',
  'draw_holm_p_value',
  'draw_indistinguishable_from_best',
  'draw_separates',
  'draw_below_half',
  'draw_highest_in',
  'draw_claimed_best_in',
];

const number = (v: number): string => (Number.isFinite(v) ? formatDigits17(v) : '');

export function compareCsv(comparison: RepresentationComparison): string {
  let text = `${COMPARE_CSV_HEADER.join(',')}\n`;
  for (const c of comparison.concepts) {
    const judged = c.basis !== 'none';
    const d = c.draws;
    const drawn = d.mode !== 'none' && d.probes.length === c.probes.length;
    const drawnJudged = drawn && Number.isFinite(d.probes[0].mean);
    const yesNo = (on: boolean, v: boolean) => (on ? (v ? 'yes' : 'no') : '');
    for (const [k, p] of c.probes.entries()) {
      const q = drawn ? d.probes[k] : null;
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
          yesNo(judged, p.belowHalf),
          String(drawn ? d.draws : 1),
          ...(q
            ? [
                number(q.mean),
                number(q.standardDeviation),
                number(q.minimum),
                number(q.maximum),
                number(q.lower),
                number(q.upper),
                number(q.differenceFromBest),
                number(q.pValueAgainstBest),
                number(q.holmPValue),
                yesNo(drawnJudged, q.indistinguishableFromBest),
                yesNo(drawnJudged, q.separates),
                yesNo(drawnJudged, q.belowHalf),
                String(q.highestInDraws),
                String(q.claimedInDraws),
              ]
            : Array<string>(14).fill('')),
        ].join(',') + '\n';
    }
  }
  return text;
}
