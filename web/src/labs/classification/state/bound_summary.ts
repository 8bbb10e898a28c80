// The learned hyperparameters that stopped on the fit's bounds, summarised: with one length-scale per
// input (64 pixels), a list of every one on its bound is forty clauses no one reads. Length-scales on a
// bound are counted and named in one sentence with what the bound means, and every one is kept for a
// "show all" list.
import { atBound, FIT_BOUNDS } from '../../../common/state/fit_bounds.ts';

const written = (v: number) => v.toExponential(0).replace('+', '');

/** "1, 2, 9, 10, …" (the first `shown` numbers, then how many more). */
function listed(numbers: number[], shown = 8): string {
  const head = numbers.slice(0, shown).join(', ');
  return numbers.length > shown ? `${head} and ${numbers.length - shown} more` : head;
}

export interface BoundSummary {
  /** One sentence per kind of value on a bound (empty: none). */
  sentences: string[];
  /** Every value on a bound, one clause each ("length-scale 3 stopped at the fit's upper bound 1e5"). */
  all: string[];
}

/**
 * `signalVariance` and the length-scales as learned (one shared or one per input, numbered from 1); the
 * held ones are left out by the caller.
 */
export function boundSummary(signalVariance: number | null, lengthScales: readonly number[]): BoundSummary {
  const sentences: string[] = [],
    all: string[] = [];
  const sv = signalVariance === null ? null : atBound(signalVariance);
  if (sv) {
    const clause = `signal variance stopped at the fit's ${sv} bound ${written(FIT_BOUNDS[sv])}`;
    all.push(clause);
    sentences.push(
      sv === 'upper'
        ? `The ${clause}: the classes are separated and the latent function wants to be ever steeper.`
        : `The ${clause}: the model explains the labels as near-constant.`,
    );
  }
  const shared = lengthScales.length === 1;
  for (const side of ['upper', 'lower'] as const) {
    const inputs = lengthScales.flatMap((l, j) => (atBound(l) === side ? [j + 1] : []));
    if (inputs.length === 0) continue;
    for (const j of inputs)
      all.push(`length-scale${shared ? '' : ` ${j}`} stopped at the fit's ${side} bound ${written(FIT_BOUNDS[side])}`);
    const which = shared
      ? 'The shared length-scale'
      : `${inputs.length} of ${lengthScales.length} length-scales (inputs ${listed(inputs)})`;
    sentences.push(
      side === 'upper'
        ? `${which} stopped at the fit's upper bound ${written(FIT_BOUNDS.upper)}: the kernel is flat along ${shared ? 'every input' : 'those inputs'}, so the model ignores ${shared ? 'them' : 'them (automatic relevance determination switches an input off this way)'}; the evidence still rises beyond the bound.`
        : `${which} stopped at the fit's lower bound ${written(FIT_BOUNDS.lower)}: the model varies as fast as it can along ${shared ? 'the inputs' : 'those inputs'}, a sign of overfitting them.`,
    );
  }
  return { sentences, all };
}
