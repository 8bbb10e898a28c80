// How numbers are shown: compact in tables and tooltips; full precision in exports.
import { parseNumber } from '../../io/delimited.ts';

export function formatMeasure(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return v.toFixed(a >= 100 ? 1 : 4);
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1 metadata column", "2 metadata columns", "1,797 rows": a count and its noun in the right number. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

export function formatBytes(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** Text a spreadsheet would run as a formula: it starts with =, +, -, @, a tab or a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A CSV cell: numbers in their shortest exact form, text quoted when needed. Text that a spreadsheet
 * would run as a formula ("=1+2", "@SUM(A1)", "-2+3") gets a leading ' so it stays text (CSV injection,
 * OWASP's advice); text that is a plain number ("-5", "+1e3", "-inf") is not a formula and keeps its sign.
 */
export function csvCell(value: string | number): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const safe = FORMULA_START.test(value) && parseNumber(value) === null ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV line of cells (csvCell each), ending in a newline. */
export function csvLine(cells: (string | number)[]): string {
  return cells.map(csvCell).join(',') + '\n';
}

/** A number as C's printf("%.17g") writes it, as the CLI's CSV files do: 17 significant digits, enough to
 * read back the same double, trailing zeros dropped ("0.10000000000000001", "1e-05", "3"). */
export function formatDigits17(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mantissa, exponentText] = v.toExponential(16).split('e');
  const exponent = Number(exponentText);
  const strip = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);
  if (exponent < -4 || exponent >= 17) {
    return `${strip(mantissa)}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return strip(v.toFixed(Math.max(0, 16 - exponent)));
}
