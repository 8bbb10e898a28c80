// Moving a plot's selection with the arrow keys: from the selected point, the point of the interactive
// mark that lies in the arrow's direction on screen (within 45° of it) and is nearest, with points off
// the arrow's line counting as twice as far (so Right stays on a row of points rather than jumping to a
// nearer one above). No point in that direction: the selection stays. Nothing selected yet: the point
// nearest the plot's centre. Pixel positions: offset + slope * value, as the plot's layout has them.
import type { Linear } from './layout.ts';

export type ArrowKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown';

export function isArrowKey(key: string): key is ArrowKey {
  return key === 'ArrowLeft' || key === 'ArrowRight' || key === 'ArrowUp' || key === 'ArrowDown';
}

export interface StepPoints {
  x: ArrayLike<number>;
  y: ArrayLike<number>;
  /** Only these indices can be selected (all when absent). */
  subset?: ArrayLike<number>;
}

/** The index the arrow moves the selection to (`from` when nothing lies that way), or null when there
 * are no finite points. `centre`: the plot area's centre in pixels, where a first press starts. */
export function keyboardStep(
  points: StepPoints,
  xLinear: Linear,
  yLinear: Linear,
  from: number | null,
  key: ArrowKey,
  centre: [number, number],
): number | null {
  const count = points.subset ? points.subset.length : points.x.length;
  const px = (i: number) => xLinear.offset + xLinear.slope * points.x[i];
  const py = (i: number) => yLinear.offset + yLinear.slope * points.y[i];
  const start = from !== null && Number.isFinite(px(from)) && Number.isFinite(py(from)) ? [px(from), py(from)] : null;
  // Screen direction of the key (y grows downwards on screen).
  const [dx, dy] =
    key === 'ArrowRight' ? [1, 0] : key === 'ArrowLeft' ? [-1, 0] : key === 'ArrowDown' ? [0, 1] : [0, -1];
  let best: number | null = null,
    bestCost = Infinity;
  for (let k = 0; k < count; k++) {
    const i = points.subset ? points.subset[k] : k;
    const x = px(i),
      y = py(i);
    if (!Number.isFinite(x) || !Number.isFinite(y) || i === from) continue;
    let cost: number;
    if (start) {
      const along = (x - start[0]) * dx + (y - start[1]) * dy;
      const across = Math.abs((x - start[0]) * dy - (y - start[1]) * dx);
      if (along <= 0 || across > along) continue;
      cost = along + 2 * across;
    } else {
      cost = Math.hypot(x - centre[0], y - centre[1]);
    }
    if (cost < bestCost) [best, bestCost] = [i, cost];
  }
  return best ?? (start ? from : null);
}
