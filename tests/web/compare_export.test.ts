// The Compare lab's CSV export: exact text in the columns of `gpprobe compare` (the header the issue fixes,
// 17 significant digits as the CLI's %.17g, undefined numbers as empty cells, yes/no verdicts and no verdict
// without a basis), and the layer profile's positions.
import { describe, expect, it } from 'vitest';
import type {
  RepresentationComparison,
  RepresentationProbe,
} from '../../web/src/engine/compare/compare_representations.ts';
import { positions } from '../../web/src/labs/compare/plots/profile_plot.ts';
import { compareCsv } from '../../web/src/labs/compare/ui/compare_csv.ts';

function probe(name: string, patch: Partial<RepresentationProbe>): RepresentationProbe {
  return {
    name,
    width: 64,
    space: 'function',
    observations: 16,
    positives: 8,
    negatives: 8,
    looAuroc: 0.9,
    looAurocStandardError: 0.05,
    looAurocLower: 0.77,
    looAurocUpper: 1,
    looLogLoss: 0.4,
    looVerdict: 'separates',
    heldoutRows: 1781,
    heldoutPositives: 900,
    heldoutAuroc: 0.1 + 0.2,
    heldoutAurocStandardError: 0.01,
    heldoutAurocLower: 0.27,
    heldoutAurocUpper: 0.33,
    queries: 1781,
    meanJudgedProbability: 0.5,
    meanEpisteme: 1 / 3,
    meanAlea: 0.25,
    decidedFraction: 0,
    oodRows: 0,
    oodAuroc: NaN,
    basisAuroc: 0.3,
    basisAurocLower: 0.27,
    basisAurocUpper: 0.33,
    differenceFromBest: 0,
    pValueAgainstBest: 1e-20,
    separates: false,
    indistinguishableFromBest: true,
    belowHalf: false,
    ...patch,
  };
}

const NO_DRAWS = {
  mode: 'none' as const,
  draws: 0,
  observations: 0,
  labelledRows: 0,
  basisRows: 0,
  best: 0,
  comparisons: 0,
  probes: [],
};

const comparison: RepresentationComparison = {
  epistemeThreshold: 3.15,
  decided: 0.1,
  layers: { layered: true, noun: 'layer', numbers: [7, 2] },
  concepts: [
    {
      concept: 'digit = 1',
      basis: 'heldout',
      basisRows: 1781,
      best: 0,
      difference: new Float64Array(4),
      standardError: new Float64Array(4),
      pValue: new Float64Array(4),
      sentence: '',
      observations: new Int32Array(16),
      draws: NO_DRAWS,
      probes: [
        probe('layer_7.npy', {}),
        probe('a,"b".npy', { oodAuroc: 0.5, separates: true, indistinguishableFromBest: false, width: 10 }),
      ],
    },
    {
      concept: 'none',
      basis: 'none',
      basisRows: 0,
      best: 0,
      difference: new Float64Array(4),
      standardError: new Float64Array(4),
      pValue: new Float64Array(4),
      sentence: '',
      observations: new Int32Array(2),
      draws: NO_DRAWS,
      probes: [
        probe('layer_7.npy', {
          heldoutAuroc: NaN,
          heldoutAurocLower: NaN,
          heldoutAurocUpper: NaN,
          pValueAgainstBest: NaN,
        }),
      ],
    },
  ],
};

describe("the Compare lab's CSV", () => {
  it("has the CLI's columns, its number format and empty cells for what is undefined", () => {
    expect(compareCsv(comparison)).toBe(
      'embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea,decided_fraction,ood_auroc,' +
        'heldout_auroc_lower,heldout_auroc_upper,loo_verdict,observations,heldout_rows,queries,separates,p_value_against_best,' +
        'indistinguishable_from_best,concept,below_half,draws,draw_mean_auroc,draw_sd_auroc,draw_min_auroc,draw_max_auroc,' +
        'draw_auroc_lower,draw_auroc_upper,draw_difference_from_best,draw_p_value_against_best,draw_holm_p_value,' +
        'draw_indistinguishable_from_best,draw_separates,draw_below_half,draw_highest_in,draw_claimed_best_in\n' +
        'layer_7.npy,64,0.90000000000000002,0.77000000000000002,1,0.30000000000000004,0.33333333333333331,0.25,0,,0.27000000000000002,' +
        '0.33000000000000002,separates,16,1781,1781,no,9.9999999999999995e-21,yes,digit = 1,no,1,,,,,,,,,,,,,,\n' +
        '"a,""b"".npy",10,0.90000000000000002,0.77000000000000002,1,0.30000000000000004,0.33333333333333331,0.25,0,0.5,0.27000000000000002,' +
        '0.33000000000000002,separates,16,1781,1781,yes,9.9999999999999995e-21,no,digit = 1,no,1,,,,,,,,,,,,,,\n' +
        'layer_7.npy,64,0.90000000000000002,0.77000000000000002,1,,0.33333333333333331,0.25,0,,,,separates,16,1781,1781,,,,none,,1,,,,,,,,,,,,,,\n',
    );
  });

  it("places a profile's points by layer number when the names carry one, else in the order loaded", () => {
    expect(positions(comparison, 2)).toEqual([7, 2]);
    expect(positions({ ...comparison, layers: { layered: false, noun: '', numbers: [] } }, 3)).toEqual([0, 1, 2]);
  });
});
