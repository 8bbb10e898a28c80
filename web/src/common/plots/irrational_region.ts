// The irrational region of a belief plot (judged probability against episteme): shown by the probe lab's
// plot and the evaluation lab's fuzzy clouds alike.
import type { BeliefEnvelope } from '../../engine/probe/analysis.ts';
import { IRRATIONAL } from './colors.ts';
import type { Mark } from './plot_model.ts';

/**
 * The irrational region of a judged-probability-vs-episteme plot, shaded left of the core's belief
 * envelope (and its mirror below 1/2), from `xMin` (the plot's left edge) on.
 */
export function irrationalRegion(envelope: BeliefEnvelope, xMin: number): Mark[] {
  // Left of the envelope: that certainty with less knowledge than any belief of this prior can have.
  const e = Array.from(envelope.episteme),
    p = Array.from(envelope.judgedProbability);
  const left = Math.min(xMin, e[0]) - 1,
    last = e[e.length - 1];
  const xs = [...e, last, left, left];
  return [
    { type: 'area', x: xs, y1: [...p, 1.02, 1.02, 0.5], fill: IRRATIONAL, opacity: 0.22 },
    { type: 'area', x: xs, y1: [...p.map((v) => 1 - v), -0.02, -0.02, 0.5], fill: IRRATIONAL, opacity: 0.22 },
    { type: 'line', x: e, y: p, color: IRRATIONAL, width: 1, dash: [4, 3] },
    { type: 'line', x: e, y: p.map((v) => 1 - v), color: IRRATIONAL, width: 1, dash: [4, 3] },
  ];
}
