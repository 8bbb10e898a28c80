// What more than one lab reads from a parsed table (the regression and classification labs): the table
// the worker's 'parse-table' gives, inputs as a row-major matrix, and a column as numbers (numeric as it
// is, ISO dates as days since the first), failing with a FileError naming the file, column, role and row.
import { parseNumber } from '../../io/delimited.ts';
import { FileError, type Column } from '../../io/table.ts';

/** n by d inputs, row-major float64. */
export interface Inputs {
  data: Float64Array;
  rows: number;
  cols: number;
}

/** What a parsed CSV gives the page: its columns, numeric or text. */
export interface ParsedTable {
  fileName: string;
  rows: number;
  columns: Column[];
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DAY_MS = 86_400_000;

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
