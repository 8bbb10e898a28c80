// From a parsed table (every column numeric or text) to the regression lab's data: the inputs x (one
// or more columns, a time column of dates, or the row index) and the target y. Bad choices fail with
// a FileError naming the file, the column and the row: "prices.csv: column 'y' row 3 is 'n/a', not a number".
import { parseNumber } from '../../../io/delimited.ts';
import { FileError, type Column } from '../../../io/table.ts';
import type { ParsedTable } from '../worker/protocol.ts';

/** Column names: the target, and the inputs (none: the row index is the input). */
export interface SeriesChoice {
  y: string;
  x: string[];
}

export interface RegressionSeries {
  /** What the user loaded: a file name or an example's title. */
  name: string;
  /** n by d, row-major. */
  x: { data: Float64Array; rows: number; cols: number };
  y: Float64Array;
  /** One label per input column, e.g. "date (days since 2021-03-01)" or "row index". */
  xNames: string[];
  yName: string;
  /** Data kept out of the fit (an example's censored tail or gaps), plotted against the predictions. */
  heldOut: { x: Float64Array; y: Float64Array } | null;
  /** What was converted or ignored, for the user to read. */
  notes: string[];
}

const Y_NAME = /^(y|target|value|values|response|output)$/i;
const TIME_NAME = /^(t|time|times|date|dates|datetime|timestamp|ds|year|day|month)$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DAY_MS = 86_400_000;
/** Beyond this an exact GP (n by n kernel matrix, n^3 factorisation) is not a browser's job. */
export const MAX_POINTS = 5000;

/** Milliseconds since 1970 of an ISO date or date-time (UTC unless it carries an offset), or NaN for
 * anything else, including impossible dates such as 2021-02-30 that Date.parse would roll over. */
export function parseIsoDate(text: string): number {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return NaN;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((k) => Number(m[k] ?? 0));
  const seconds = Number(m[6] ?? 0);
  const time = Date.UTC(year, month - 1, day, hour, minute, 0) + seconds * 1000;
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || seconds >= 60)
    return NaN;
  const zone = m[7];
  if (!zone || zone === 'Z') return time;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return time - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
}

function quoted(cell: string): string {
  return cell === '' ? 'empty' : `'${cell.length > 24 ? `${cell.slice(0, 24)}...` : cell}'`;
}

/** A date column: every value shaped like an ISO date (2021-03-01, 2021-03-01T12:00). */
export function isDateColumn(c: Column): boolean {
  return c.kind === 'string' && c.values.length > 0 && c.values.every((v) => ISO_DATE.test(v.trim()));
}

/** The default choice: y the column named like a target (numeric or not: a bad value there is an
 * error to show), else the last numeric column; x a time column if one is named so or holds dates, else
 * every other numeric or date column; none left means the row index. */
export function defaultChoice(table: ParsedTable): SeriesChoice {
  const usable = table.columns.filter((c) => c.kind === 'number' || isDateColumn(c));
  const named = table.columns.find((c) => Y_NAME.test(c.name));
  const y = named ?? usable.filter((c) => c.kind === 'number').at(-1);
  if (!y) throw new FileError(table.fileName, 'has no numeric column to use as y');
  const rest = usable.filter((c) => c !== y);
  const time = rest.find((c) => TIME_NAME.test(c.name) || isDateColumn(c));
  return { y: y.name, x: time ? [time.name] : rest.map((c) => c.name) };
}

function column(table: ParsedTable, name: string, role: string): Column {
  const c = table.columns.find((x) => x.name === name);
  if (!c) throw new FileError(table.fileName, `has no column '${name}' (${role})`);
  return c;
}

/** The values of a column as numbers: numeric as they are, ISO dates as days since the first one (not for
 * role 'y'); anything else fails with a FileError naming the file, the column, its role and the row. */
export function numericColumn(table: ParsedTable, c: Column, role: string): { values: Float64Array; label: string } {
  const where = (row: number) => `column '${c.name}' (${role}) row ${row + 1}`;
  if (c.kind === 'number') {
    const bad = c.values.findIndex((v) => !Number.isFinite(v));
    if (bad >= 0) {
      const v = c.values[bad];
      throw new FileError(table.fileName, `${where(bad)} is ${Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf'}`);
    }
    return { values: c.values, label: c.name };
  }
  if (role !== 'y' && isDateColumn(c)) {
    const times = c.values.map(parseIsoDate);
    const bad = times.findIndex((t) => !Number.isFinite(t));
    if (bad >= 0) throw new FileError(table.fileName, `${where(bad)}: ${quoted(c.values[bad])} is not a valid date`);
    const first = Math.min(...times);
    const origin = new Date(first).toISOString().slice(0, 10);
    return { values: Float64Array.from(times, (t) => (t - first) / DAY_MS), label: `${c.name} (days since ${origin})` };
  }
  const bad = Math.max(
    0,
    c.values.findIndex((v) => parseNumber(v) === null),
  );
  throw new FileError(table.fileName, `${where(bad)} is ${quoted(c.values[bad] ?? '')}, not a number`);
}

/** The series of a table under a choice of columns. */
export function seriesFromTable(table: ParsedTable, choice: SeriesChoice): RegressionSeries {
  if (table.rows < 2) throw new FileError(table.fileName, `needs at least 2 data rows, has ${table.rows}`);
  if (table.rows > MAX_POINTS) {
    throw new FileError(
      table.fileName,
      `has ${table.rows.toLocaleString('en-US')} rows; exact GP regression here takes at most ` +
        `${MAX_POINTS.toLocaleString('en-US')} points (an n × n kernel matrix, n³ work per likelihood)`,
    );
  }
  if (choice.x.includes(choice.y))
    throw new FileError(table.fileName, `column '${choice.y}' cannot be both an input and y`);
  const y = numericColumn(table, column(table, choice.y, 'y'), 'y');
  const n = table.rows;
  const notes: string[] = [];
  const inputs = choice.x.map((name) => numericColumn(table, column(table, name, 'x'), 'x'));
  if (inputs.length === 0) {
    inputs.push({ values: Float64Array.from({ length: n }, (_, i) => i), label: 'row index' });
    notes.push('no input column chosen: the row index is the input');
  }
  const d = inputs.length;
  const x = new Float64Array(n * d);
  inputs.forEach((input, j) => {
    for (let i = 0; i < n; i++) x[i * d + j] = input.values[i];
  });
  const ignored = table.columns
    .filter((c) => c.name !== choice.y && !choice.x.includes(c.name))
    .map((c) => `'${c.name}'`);
  if (ignored.length && choice.x.length) notes.push(`not used: ${ignored.join(', ')}`);
  return {
    name: table.fileName,
    x: { data: x, rows: n, cols: d },
    y: y.values,
    xNames: inputs.map((i) => i.label),
    yName: y.label,
    heldOut: null,
    notes,
  };
}
