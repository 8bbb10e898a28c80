// The classification lab's pieces that are not the engine's: CSV text to data (which columns, labels of
// either convention, class indices or text values (tests/web/classification_multiclass.test.ts: C classes), each bad input's exact message), the plane and its grid, the
// 0.5 contour's geometry, the map image's PNG (decoded again), and the CSV export's 17-digit numbers
// (as C's printf("%.17g") writes them, like the CLI).
import { unzlibSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { contourSegments } from '../../web/src/common/plots/contour.ts';
import { base64, encodePng, imagePixels } from '../../web/src/common/plots/image_raster.ts';
import {
  dataFromTable,
  defaultChoice,
  defaultPlane,
  planeGrid,
  type ColumnChoice,
} from '../../web/src/labs/classification/state/classification_data.ts';
import { formatDigits17 } from '../../web/src/common/ui/format.ts';
import { messageOf, tableOf } from './fixtures.ts';

function load(text: string, fileName = 'data.csv', choice?: ColumnChoice) {
  const t = tableOf(text, fileName);
  return dataFromTable(t, choice ?? defaultChoice(t));
}

describe('CSV to classification data', () => {
  it('takes the label by name, every other numeric column as a feature, row-major', () => {
    const d = load('a,label,b\n1,0,2\n3,1,4\n5,1,6\n');
    expect(d.labelName).toBe('label');
    expect(d.inputNames).toEqual(['a', 'b']);
    expect(d.x).toEqual({ data: Float64Array.of(1, 2, 3, 4, 5, 6), rows: 3, cols: 2 });
    expect(Array.from(d.labels)).toEqual([0, 1, 1]);
    expect(d.classNames).toEqual(['0', '1']);
    expect(defaultChoice(tableOf('0.5,1,1\n0.7,3,0\n'))).toEqual({
      label: 'column 3',
      features: ['column 1', 'column 2'],
    });
  });

  it('keeps -1/+1 labels, maps two text values to 0/1 and says so', () => {
    const signs = load('x,y\n0.1,-1\n0.2,1\n');
    expect(Array.from(signs.labels)).toEqual([-1, 1]);
    expect(signs.classNames).toEqual(['-1', '1']);
    const text = load('x,class\n0.1,spam\n0.2,ham\n0.3,spam\n');
    expect(Array.from(text.labels)).toEqual([1, 0, 1]);
    expect(text.classNames).toEqual(['ham', 'spam']);
    expect(text.notes).toEqual(["labels: 'ham' is class 0, 'spam' is class 1"]);
  });

  it('refuses each bad file with a message naming the file, the column and the row', () => {
    expect(messageOf(() => load('x,label\n1,0\n2,2.5\n', 'bad.csv'))).toBe(
      "bad.csv: column 'label' (label) row 2 is 2.5; labels must be class indices 0, 1, 2, … (or -1/+1), or text values",
    );
    expect(messageOf(() => load('x,label\n1,0\n2,-1\n', 'mixed.csv'))).toBe(
      "mixed.csv: column 'label' (label) mixes 0/1 and -1/+1: row 1 is 0, row 2 is -1",
    );
    expect(messageOf(() => load('x,label\n1,0\noops,1\n', 'nan.csv'))).toBe(
      "nan.csv: column 'x' (feature) row 2 is 'oops', not a number",
    );
    expect(messageOf(() => load('label\n0\n1\n', 'one.csv'))).toBe(
      'one.csv: needs at least one feature column besides the label',
    );
    expect(messageOf(() => load('x,label\n', 'empty.csv'))).toBe('empty.csv: no data rows');
    const many = `x,label\n${Array.from({ length: 2001 }, (_, i) => `${i},${i % 2}`).join('\n')}\n`;
    expect(messageOf(() => load(many, 'big.csv'))).toBe(
      'big.csv: has 2,001 rows; GP classification here takes at most 2,000 points (n³ work per Newton step or EP sweep)',
    );
  });
});

describe('the plane of the maps', () => {
  it('holds the other columns at their medians and lays the grid out row by row', () => {
    const d = load('a,b,c,label\n0,0,5,0\n1,2,7,1\n2,4,6,1\n');
    const plane = defaultPlane(d);
    expect(plane).toEqual({ x: 0, y: 1, held: [1, 2, 6] });
    const g = planeGrid(d, { ...plane, y: 2 }, 3);
    expect(g.xRange).toEqual([-0.16, 2.16]);
    expect(g.yRange[0]).toBeCloseTo(4.84, 14);
    // Point (row i, column j) = (x_j, held b, y_i): the column of b keeps its held value everywhere.
    const near = (actual: Float64Array, expected: number[]) =>
      expected.forEach((v, k) => expect(actual[k]).toBeCloseTo(v, 13));
    near(g.points.data.subarray(0, 3), [-0.16, 2, 4.84]);
    near(g.points.data.subarray(3 * 5, 3 * 6), [2.16, 2, 6]); // row 1, column 2
    expect(g.points.rows).toBe(9);
    // One feature: a line of points along it, the vertical axis that of p.
    const line = planeGrid(load('a,label\n0,0\n1,1\n'), { x: 0, y: 0, held: [0.5] }, 5);
    expect([line.rows, line.columns, line.points.rows, line.points.cols]).toEqual([1, 5, 5, 1]);
    expect(line.yRange).toEqual([0, 1]);
    expect(line.points.data[4]).toBeCloseTo(1.08, 14);
  });
});

describe('the 0.5 contour', () => {
  it('of a field linear in x is the vertical line where it crosses the level', () => {
    const columns = 11,
      rows = 4;
    const values = Float64Array.from({ length: rows * columns }, (_, k) => (k % columns) / 10);
    const c = contourSegments({ values, columns, rows, x0: 0, x1: 1, y0: 0, y1: 3 }, 0.55);
    expect(c.x.length).toBe(2 * (rows - 1));
    for (const x of c.x) expect(x).toBeCloseTo(0.55, 14);
    expect(Array.from(c.y)).toEqual([0, 1, 1, 2, 2, 3]);
  });

  it('of a radial field lies on the circle, and a saddle never crosses itself', () => {
    const n = 81;
    const at = (k: number) => -2 + (4 * k) / (n - 1);
    const values = Float64Array.from({ length: n * n }, (_, k) => at(k % n) ** 2 + at(Math.floor(k / n)) ** 2);
    const c = contourSegments({ values, columns: n, rows: n, x0: -2, x1: 2, y0: -2, y1: 2 }, 1);
    expect(c.x.length).toBeGreaterThan(100);
    for (let k = 0; k < c.x.length; k++) expect(Math.abs(Math.hypot(c.x[k], c.y[k]) - 1)).toBeLessThan(2e-3); // interpolation error (h/2)^2
    // Corners 1 0 / 0 1 with a centre above the level: the two low corners are cut off.
    const saddle = contourSegments({ values: [1, 0, 0, 1], columns: 2, rows: 2, x0: 0, x1: 1, y0: 0, y1: 1 }, 0.4);
    [0, 0.4, 0.6, 1].forEach((v, k) => expect(saddle.x[k]).toBeCloseTo(v, 14));
    [0.6, 1, 0, 0.4].forEach((v, k) => expect(saddle.y[k]).toBeCloseTo(v, 14));
  });
});

describe('the map image', () => {
  it('is a PNG of the palette colours, top row first, that decodes back to the same pixels', () => {
    const mark = {
      type: 'image' as const,
      x0: 0,
      x1: 1,
      y0: 0,
      y1: 1,
      columns: 3,
      rows: 2,
      colors: Uint8Array.of(0, 1, 0, 1, 1, 0),
      palette: ['#000000', '#ff8000'],
    };
    const pixels = imagePixels(mark);
    expect(Array.from(pixels.subarray(0, 4))).toEqual([255, 128, 0, 255]); // top-left = row 1, column 0
    const png = encodePng(3, 2, pixels);
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([3, 2]);
    const idatLength = view.getUint32(33);
    const raw = unzlibSync(png.subarray(41, 41 + idatLength));
    expect(raw.length).toBe(2 * (1 + 12));
    expect(Array.from(raw.subarray(1, 13))).toEqual(Array.from(pixels.subarray(0, 12)));
    // CRC-32 of "IEND" (no data) is the well-known AE 42 60 82.
    expect(Array.from(png.subarray(png.length - 4))).toEqual([0xae, 0x42, 0x60, 0x82]);
    expect(base64(png)).toBe(Buffer.from(png).toString('base64'));
    expect(base64(Uint8Array.of(1, 2))).toBe('AQI=');
  });
});

describe('numbers in the CSV export', () => {
  it('have 17 significant digits exactly as printf("%.17g") (the CLI) writes them', () => {
    const cases: [number, string][] = [
      [0.1, '0.10000000000000001'],
      [1 / 3, '0.33333333333333331'],
      [1e-5, '1.0000000000000001e-05'],
      [1.5e-5, '1.5e-05'],
      [1.2345678901234568e17, '1.2345678901234568e+17'],
      [1e17, '1e+17'],
      [9.999999999999998e16, '99999999999999984'],
      [0.0001, '0.0001'],
      [0.00012345678901234567, '0.00012345678901234567'],
      [-2.5, '-2.5'],
      [3, '3'],
      [1e300, '1.0000000000000001e+300'],
      [5e-324, '4.9406564584124654e-324'],
      [0.5, '0.5'],
      [100, '100'],
      [1.2345678901234568e16, '12345678901234568'],
      [2 ** -30, '9.3132257461547852e-10'],
      [0.30000000000000004, '0.30000000000000004'],
      [0, '0'],
    ];
    for (const [v, text] of cases) expect(formatDigits17(v), String(v)).toBe(text);
    for (const [v] of cases) expect(Number(formatDigits17(v))).toBe(v);
  });
});
