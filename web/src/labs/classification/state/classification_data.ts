// The classification lab's data: a bundled example or a CSV (feature columns and one label column), and
// the plane the maps show (two chosen columns, the others held at chosen values) with its grid of
// points. Labels are 0/1 or -1/+1 (two classes), class indices 0..C-1 (C = the largest + 1, up to
// MAX_CLASSES), or text values (sorted, then numbered). A bad file fails with a FileError naming the
// file, the column and the row: "bad.csv: column 'label' (label) row 4 is 2.5; labels must be class
// indices 0, 1, 2, … (or -1/+1), or text values".
import type { ClassificationExample } from '../../../engine/classification/classification.ts';
import { parseNumber } from '../../../io/delimited.ts';
import { FileError, type Column } from '../../../io/table.ts';
import { isDateColumn, numericColumn, type Inputs, type ParsedTable } from '../../../common/data/table.ts';

export interface ClassificationData {
  /** A file name or an example's title. */
  name: string;
  /** n by d inputs, row-major. */
  x: Inputs;
  /** n labels: 0/1 or -1/+1 as the file has them with two classes, else class indices 0..C-1 (text
   * labels become indices in sorted order). */
  labels: Float64Array;
  inputNames: string[];
  labelName: string;
  /** What each class is called ("0", "1", … or the file's text values); classNames[0] is the negative
   * class of a binary model. Its length is C. */
  classNames: string[];
  /** Rows each an image of this many columns (the digits: 8), for thumbnails; absent otherwise. */
  imageWidth?: number;
  /** Held-out points with their labels (a bundled example's test rows): shown as a table or thumbnails. */
  test?: { x: Inputs; labels: Float64Array } | null;
  /** What was converted or ignored, for the user to read. */
  notes: string[];
}

/** Column names: the label, and the features (at least one). */
export interface ColumnChoice {
  label: string;
  features: string[];
}

const LABEL_NAME = /^(label|labels|class|classes|y|target|category)$/i;
/** The most classes the lab takes (the core's exact class probabilities cover C <= 4; up to 10 it
 * estimates their error). */
export const MAX_CLASSES = 10;
/** Beyond this an exact GP classifier (n³ per Newton step or EP sweep) is not a browser's job. */
export const MAX_POINTS = 2000;

export function dataFromExample(e: ClassificationExample): ClassificationData {
  return {
    name: e.title,
    x: { data: Float64Array.from(e.x.data), rows: e.x.rows, cols: e.x.cols },
    labels: e.labels,
    inputNames: e.inputNames,
    labelName: 'label',
    classNames: ['0', '1'],
    notes: [],
  };
}

/** A column meant to hold numbers: numeric, dates, or text of which most cells are numbers (a typo in a
 * numeric column then gets its message, naming the cell, instead of dropping the column). */
function numberLike(c: Column): boolean {
  if (c.kind === 'number' || isDateColumn(c)) return true;
  return c.values.filter((v) => parseNumber(v) !== null).length >= c.values.length / 2;
}

/** The default choice: the label is the column named like one, else the last column; the features are
 * every other column that holds numbers. */
export function defaultChoice(table: ParsedTable): ColumnChoice {
  const label = table.columns.find((c) => LABEL_NAME.test(c.name)) ?? table.columns.at(-1);
  if (!label) throw new FileError(table.fileName, 'has no columns');
  return { label: label.name, features: table.columns.filter((c) => c !== label && numberLike(c)).map((c) => c.name) };
}

const quoted = (v: string) => `'${v.length > 24 ? `${v.slice(0, 24)}...` : v}'`;

/** The labels of a column: 0/1 or -1/+1 numbers as they are; other non-negative whole numbers as class
 * indices 0..C-1; text values numbered in sorted order. */
function labelsOf(table: ParsedTable, c: Column): { labels: Float64Array; classNames: string[]; note: string | null } {
  const where = (row: number) => `column '${c.name}' (label) row ${row + 1}`;
  const rule = 'labels must be class indices 0, 1, 2, … (or -1/+1), or text values';
  const tooMany = (count: number) =>
    new FileError(
      table.fileName,
      `column '${c.name}' (label) has ${count} classes; the lab takes at most ${MAX_CLASSES}`,
    );
  if (c.kind === 'number') {
    const values = c.values;
    const bad = values.findIndex((v) => !(Number.isInteger(v) && v >= -1));
    if (bad >= 0) throw new FileError(table.fileName, `${where(bad)} is ${values[bad]}; ${rule}`);
    const zero = values.indexOf(0),
      minus = values.indexOf(-1),
      big = values.findIndex((v) => v > 1);
    if (zero >= 0 && minus >= 0) {
      throw new FileError(
        table.fileName,
        `column '${c.name}' (label) mixes 0/1 and -1/+1: row ${zero + 1} is 0, row ${minus + 1} is -1`,
      );
    }
    if (big >= 0 && minus >= 0) {
      throw new FileError(
        table.fileName,
        `column '${c.name}' (label) mixes -1/+1 and class indices: row ${big + 1} is ${values[big]}, row ${minus + 1} is -1`,
      );
    }
    if (big < 0) return { labels: values, classNames: [minus >= 0 ? '-1' : '0', '1'], note: null };
    let C = 0;
    for (const v of values) C = Math.max(C, v + 1);
    if (C > MAX_CLASSES) throw tooMany(C);
    return { labels: values, classNames: Array.from({ length: C }, (_, k) => String(k)), note: null };
  }
  const empty = c.values.findIndex((v) => v.trim() === '');
  if (empty >= 0) throw new FileError(table.fileName, `${where(empty)} is empty; ${rule}`);
  const names = [...new Set(c.values.map((v) => v.trim()))].sort();
  if (names.length > MAX_CLASSES) throw tooMany(names.length);
  if (names.length > 2) {
    const index = new Map(names.map((name, k) => [name, k]));
    return {
      labels: Float64Array.from(c.values, (v) => index.get(v.trim())!),
      classNames: names,
      note: `labels: ${names.map((name, k) => `${quoted(name)} is class ${k}`).join(', ')}`,
    };
  }
  const positive = names.at(-1)!,
    negative = names.length === 2 ? names[0] : `not ${positive}`;
  return {
    labels: Float64Array.from(c.values, (v) => (v.trim() === positive ? 1 : 0)),
    classNames: [negative, positive],
    note: `labels: ${quoted(negative)} is class 0, ${quoted(positive)} is class 1`,
  };
}

/** The number of classes C of the data (2 for binary labels). */
export const classCount = (d: Pick<ClassificationData, 'classNames'>): number => d.classNames.length;

/** Class indices 0..C-1 of labels (a binary model's -1/+1 become 0/1). */
export function classIndices(
  d: Pick<ClassificationData, 'labels' | 'classNames'>,
  labels: Float64Array = d.labels,
): Float64Array {
  return classCount(d) === 2 ? Float64Array.from(labels, (v) => (v > 0 ? 1 : 0)) : labels;
}

/** How many examples each class has. */
export function classCounts(d: Pick<ClassificationData, 'labels' | 'classNames'>): number[] {
  const counts = Array(classCount(d)).fill(0);
  for (const v of classIndices(d)) counts[v] += 1;
  return counts;
}

/** The data of a bundled multi-class example: a CSV's table (feature columns x1.., then label), its
 * first `trainRows` rows trained on and the rest held out. */
export function dataFromExampleTable(
  table: ParsedTable,
  title: string,
  trainRows: number,
  imageWidth?: number,
): ClassificationData {
  const all = dataFromTable(table, defaultChoice(table));
  const { rows, cols } = all.x,
    n = Math.min(trainRows, rows);
  const part = (from: number, to: number) => ({
    x: { data: all.x.data.slice(from * cols, to * cols), rows: to - from, cols },
    labels: all.labels.slice(from, to),
  });
  const train = part(0, n);
  return { ...all, name: title, ...train, notes: [], imageWidth, test: n < rows ? part(n, rows) : null };
}

/** The data of a table under a choice of columns. */
export function dataFromTable(table: ParsedTable, choice: ColumnChoice): ClassificationData {
  if (table.rows < 1) throw new FileError(table.fileName, 'has no data rows');
  if (table.rows > MAX_POINTS) {
    throw new FileError(
      table.fileName,
      `has ${table.rows.toLocaleString('en-US')} rows; GP classification here takes at most ` +
        `${MAX_POINTS.toLocaleString('en-US')} points (n³ work per Newton step or EP sweep)`,
    );
  }
  if (choice.features.includes(choice.label))
    throw new FileError(table.fileName, `column '${choice.label}' cannot be both a feature and the label`);
  if (choice.features.length === 0)
    throw new FileError(table.fileName, 'needs at least one feature column besides the label');
  const column = (name: string, role: string) => {
    const c = table.columns.find((x) => x.name === name);
    if (!c) throw new FileError(table.fileName, `has no column '${name}' (${role})`);
    return c;
  };
  const { labels, classNames, note } = labelsOf(table, column(choice.label, 'label'));
  const features = choice.features.map((name) => numericColumn(table, column(name, 'feature'), 'feature'));
  const n = table.rows,
    d = features.length;
  const x = new Float64Array(n * d);
  features.forEach((f, j) => {
    for (let i = 0; i < n; i++) x[i * d + j] = f.values[i];
  });
  const notes = note ? [note] : [];
  const ignored = table.columns
    .filter((c) => c.name !== choice.label && !choice.features.includes(c.name))
    .map((c) => quoted(c.name));
  if (ignored.length) notes.push(`not used: ${ignored.join(', ')}`);
  return {
    name: table.fileName,
    x: { data: x, rows: n, cols: d },
    labels,
    inputNames: features.map((f) => f.label),
    labelName: choice.label,
    classNames,
    notes,
  };
}

/** What the maps show: columns `x` and `y` of the inputs over a range, the other columns held at `held`. */
export interface Plane {
  x: number;
  y: number;
  /** One value per input column (those of x and y are ignored). */
  held: number[];
}

/** The data's values of column j. */
export function columnOf(data: ClassificationData, j: number): Float64Array {
  const { rows, cols } = data.x;
  return Float64Array.from({ length: rows }, (_, i) => data.x.data[i * cols + j]);
}

/** Coordinates moving in a certificate to start with: every one up to MOST_MOVING columns; beyond (the
 * digits' 64 pixels, where branch and bound over every one would not end), the MOST_MOVING columns
 * that vary most over the data (the first of equals). */
export const MOST_MOVING = 5;
export function defaultDims(data: ClassificationData): number[] {
  const d = data.x.cols;
  if (d <= MOST_MOVING) return Array.from({ length: d }, (_, j) => j);
  const spread = Array.from({ length: d }, (_, j) => {
    const v = columnOf(data, j),
      mean = v.reduce((s, x) => s + x, 0) / v.length;
    return v.reduce((s, x) => s + (x - mean) ** 2, 0);
  });
  return spread
    .map((s, j) => [s, j] as const)
    .sort((a, b) => b[0] - a[0] || a[1] - b[1])
    .slice(0, MOST_MOVING)
    .map(([, j]) => j)
    .sort((a, b) => a - b);
}

/** The first two columns, the others held at their medians (a typical point of the data). */
export function defaultPlane(data: ClassificationData): Plane {
  const held = Array.from({ length: data.x.cols }, (_, j) => {
    const sorted = columnOf(data, j).sort();
    return sorted[Math.floor(sorted.length / 2)];
  });
  return { x: 0, y: Math.min(1, data.x.cols - 1), held };
}

/** The range of column j with 8% of its span on either side. */
export function paddedRange(data: ClassificationData, j: number): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const v of columnOf(data, j)) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  const pad = 0.08 * (hi - lo || Math.abs(hi) || 1);
  return [lo - pad, hi + pad];
}

export interface PlaneGrid {
  /** rows × columns points, row-major: row i (y), column j (x); one row (a line along x) with one feature. */
  points: Inputs;
  columns: number;
  rows: number;
  xRange: [number, number];
  /** The vertical axis' range (with one feature: that of p, [0, 1]). */
  yRange: [number, number];
}

/** size × size points evenly over the plane's two columns, every other column at its held value; with
 * one feature, size points along it. */
export function planeGrid(data: ClassificationData, plane: Plane, size: number): PlaneGrid {
  const d = data.x.cols,
    rows = d === 1 ? 1 : size;
  const xRange = paddedRange(data, plane.x),
    yRange: [number, number] = d === 1 ? [0, 1] : paddedRange(data, plane.y);
  const points = new Float64Array(rows * size * d);
  for (let i = 0; i < rows; i++) {
    const y = rows === 1 ? 0 : yRange[0] + ((yRange[1] - yRange[0]) * i) / (rows - 1);
    for (let j = 0; j < size; j++) {
      const at = (i * size + j) * d;
      for (let k = 0; k < d; k++) points[at + k] = plane.held[k];
      if (d > 1) points[at + plane.y] = y;
      points[at + plane.x] = xRange[0] + ((xRange[1] - xRange[0]) * j) / (size - 1);
    }
  }
  return { points: { data: points, rows: rows * size, cols: d }, columns: size, rows, xRange, yRange };
}
