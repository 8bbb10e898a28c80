// Where a field on a regular grid crosses a level (the 0.5 line of a predictive probability map), as
// line segments for a SegmentsMark: marching squares with linear interpolation along cell edges. A
// saddle cell (opposite corners on the same side) is resolved by the mean of its four corners, so the
// line never crosses itself. Geometry of the plot only: the values are the engine's.

/** `values` is rows × columns, row-major, row i at y0 + i·(y1 − y0)/(rows − 1), column j likewise in x. */
export interface GridField {
  values: ArrayLike<number>;
  columns: number;
  rows: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

export function contourSegments(field: GridField, level: number): { x: Float64Array; y: Float64Array } {
  const { values, columns, rows, x0, x1, y0, y1 } = field;
  const xs: number[] = [],
    ys: number[] = [];
  const dx = columns > 1 ? (x1 - x0) / (columns - 1) : 0,
    dy = rows > 1 ? (y1 - y0) / (rows - 1) : 0;
  const at = (i: number, j: number) => values[i * columns + j];
  // The crossing on the edge from corner (i, j) to corner (k, l), one step apart.
  const cross = (i: number, j: number, k: number, l: number): [number, number] => {
    const a = at(i, j),
      b = at(k, l);
    const t = a === b ? 0.5 : (level - a) / (b - a);
    return [x0 + (j + t * (l - j)) * dx, y0 + (i + t * (k - i)) * dy];
  };
  const segment = (p: [number, number], q: [number, number]) => {
    xs.push(p[0], q[0]);
    ys.push(p[1], q[1]);
  };
  for (let i = 0; i + 1 < rows; i++) {
    for (let j = 0; j + 1 < columns; j++) {
      // Corners: a (i, j) lower left, b (i, j+1) lower right, c (i+1, j+1) upper right, d (i+1, j) upper left.
      const a = at(i, j) >= level,
        b = at(i, j + 1) >= level,
        c = at(i + 1, j + 1) >= level,
        d = at(i + 1, j) >= level;
      const code = (a ? 1 : 0) | (b ? 2 : 0) | (c ? 4 : 0) | (d ? 8 : 0);
      if (code === 0 || code === 15) continue;
      const bottom = () => cross(i, j, i, j + 1),
        right = () => cross(i, j + 1, i + 1, j + 1);
      const top = () => cross(i + 1, j, i + 1, j + 1),
        left = () => cross(i, j, i + 1, j);
      switch (code) {
        case 1:
        case 14:
          segment(left(), bottom());
          break;
        case 2:
        case 13:
          segment(bottom(), right());
          break;
        case 3:
        case 12:
          segment(left(), right());
          break;
        case 4:
        case 11:
          segment(right(), top());
          break;
        case 6:
        case 9:
          segment(bottom(), top());
          break;
        case 7:
        case 8:
          segment(left(), top());
          break;
        case 5:
        case 10: {
          // Saddle: a and c on one side, b and d on the other. The centre decides which pairs connect.
          const centre = (at(i, j) + at(i, j + 1) + at(i + 1, j + 1) + at(i + 1, j)) / 4 >= level;
          if (centre === a) {
            segment(left(), top());
            segment(bottom(), right());
          } else {
            segment(left(), bottom());
            segment(right(), top());
          }
          break;
        }
      }
    }
  }
  return { x: Float64Array.from(xs), y: Float64Array.from(ys) };
}
