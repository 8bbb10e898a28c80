// Progress of a certificate (branch and bound) posted from inside its one long wasm call, for the probe's
// and the classifier's certify handlers alike.
import type { Progress } from '../../engine/progress.ts';
import type { HandlerContext } from './handler.ts';

/** Shortest time between two interval updates posted to the page. */
export const INTERVAL_MS = 30;

/** Forwards progress at most every INTERVAL_MS (and at once when the searched extreme or the stage
 * changes), the stage prefixed by `label`. */
export function throttled(c: Pick<HandlerContext, 'progress'>, label: string): (p: Progress) => void {
  let last = -Infinity,
    stage = '';
  return (p) => {
    const now = performance.now();
    if (p.stage === stage && now - last < INTERVAL_MS) return;
    stage = p.stage;
    last = now;
    c.progress({ ...p, stage: `${label}: ${p.stage}` });
  };
}
