// From a parsed table (every column numeric or text) to the regression lab's data: the inputs x (one
// or more columns, a time column of dates, or the row index) and the target y. Bad choices fail with
// a FileError naming the file, the column and the row: "prices.csv: column 'y' row 3 is 'n/a', not a number".
import { FileError, type Column } from '../../../io/table.ts';
import { isDateColumn, numericColumn, type ParsedTable } from '../../../common/data/table.ts';

export { isDateColumn, numericColumn, parseIsoDate } from '../../../common/data/table.ts';

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
/** Beyond this an exact GP (n by n kernel matrix, n^3 factorisation) is not a browser's job. */
export const MAX_POINTS = 5000;

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
