// How a robustness certificate is said in words: the verdict at x* ("a point 0.83 from x* (L∞) is
// classified the other way" / "certified: no point within γ = 0.2 changes the class" / not decided,
// and why), and a stop reason a user can act on. Formatting only: the numbers are the certificate's.
import type { RobustnessCertificate, SearchStatus } from '../../../engine/certify/classification_certify.ts';
import { adversarialSide } from '../plots/certify_plots.ts';
import { formatMeasure } from '../../../common/ui/format.ts';

export const STATUS_TEXT: Record<SearchStatus, string> = {
  converged: 'converged to the tolerance',
  iteration_limit: 'stopped at the iteration limit',
  time_limit: 'stopped at the time limit',
  min_box: 'stopped: the boxes cannot be split further',
  cancelled: 'cancelled',
};

/** "x1 = 0.52, x2 = -1.3". */
export function coordinates(names: string[], x: ArrayLike<number>): string {
  return names.map((n, j) => `${n} = ${formatMeasure(x[j])}`).join(', ');
}

/**
 * A witness by what moves: with few inputs every coordinate ("x1 = 0.5, x2 = -0.2"); with many (64 pixels,
 * 5 of them moving) only the coordinates that differ from x*, each with its change, and how many stay.
 */
export function movedCoordinates(names: string[], x: ArrayLike<number>, point: ArrayLike<number>): string {
  if (names.length <= 4) return coordinates(names, x);
  const moved: string[] = [];
  for (let j = 0; j < names.length; j++) {
    const change = x[j] - point[j];
    if (change !== 0)
      moved.push(`${names[j]} = ${formatMeasure(x[j])} (${change > 0 ? '+' : '−'}${formatMeasure(Math.abs(change))})`);
  }
  if (moved.length === 0) return 'x* itself';
  return `${moved.join(', ')} (the other ${names.length - moved.length} coordinates as at x*)`;
}

/** The largest coordinate change from x* to x (the L∞ distance the box is measured in). */
function linfDistance(x: ArrayLike<number>, point: number[]): number {
  let d = 0;
  for (let j = 0; j < point.length; j++) d = Math.max(d, Math.abs(x[j] - point[j]));
  return d;
}

/** The verdict at x* in one sentence, with the predicted class named. */
export function verdictText(
  c: RobustnessCertificate,
  point: number[],
  classNames: readonly string[],
  names: string[],
): string {
  const side = adversarialSide(c),
    x = c[side];
  const predicted = classNames[c.probabilityAtPoint > 0.5 ? 1 : 0],
    other = classNames[c.probabilityAtPoint > 0.5 ? 0 : 1];
  const name = side === 'minimum' ? 'π_min' : 'π_max';
  if (c.verdictCanFlip === 'yes') {
    const attained = side === 'minimum' ? x.upper : x.lower;
    return (
      `A point ${formatMeasure(linfDistance(x.witness, point))} from x* (L∞) is classified the other way: p(y = 1) = ${formatMeasure(attained)} ` +
      `at ${movedCoordinates(names, x.witness, point)} (class ${other}; x* is class ${predicted}).`
    );
  }
  if (c.verdictCanFlip === 'no') {
    const bound =
      side === 'minimum' ? `π_min ≥ ${formatMeasure(x.lower)} > ½` : `π_max ≤ ${formatMeasure(x.upper)} < ½`;
    return `Certified: no point within γ = ${formatMeasure(c.gamma)} of x* (L∞) changes the class (${predicted}): ${bound}.`;
  }
  return (
    `Not decided: the certified interval [${formatMeasure(x.lower)}, ${formatMeasure(x.upper)}] of ${name} still contains ½ ` +
    `(${STATUS_TEXT[x.status]}); a smaller tolerance, more iterations or more time can decide it.`
  );
}
