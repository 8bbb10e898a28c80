// The Compare lab's grid ("every value of a column") offers a label column first: the first with 2 to 12
// values, passing over an index or id column whose every row is its own value (the digits demo's `index`
// used to be the default: a grid of its first 12 rows' indices).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gridColumn } from '../../web/src/labs/compare/state/grid_column.ts';
import type { Column } from '../../web/src/io/table.ts';

const numbers = (name: string, values: number[]): Column => ({
  name,
  kind: 'number',
  values: Float64Array.from(values),
});
const texts = (name: string, values: string[]): Column => ({ name, kind: 'string', values });

describe('the grid column offered first', () => {
  it("is the digits demo's digit column, not its index", () => {
    // The demo's metadata as written by scripts/data/make_digits_dataset.py.
    const [header, ...lines] = readFileSync('web/public/demo/digits/metadata.csv', 'utf8').trim().split('\n');
    const names = header.split(',');
    const cells = lines.map((l) => l.split(','));
    const columns = names.map((name, j) =>
      name === 'split'
        ? texts(
            name,
            cells.map((r) => r[j]),
          )
        : numbers(
            name,
            cells.map((r) => Number(r[j])),
          ),
    );
    expect(names[0]).toBe('index');
    expect(gridColumn(columns, 12)?.name).toBe('digit');
  });

  it('passes over a constant column and one with more values than the grid takes', () => {
    const ids = texts('id', ['a', 'b', 'c', 'd']);
    const constant = numbers('one', [1, 1, 1, 1]);
    const label = texts('label', ['cat', 'dog', 'cat', 'dog']);
    expect(gridColumn([ids, constant, label], 3)?.name).toBe('label');
    expect(gridColumn([ids, constant, label], 4)?.name).toBe('id');
  });

  it('falls back to the first column when none has 2 to `most` values, and to none without columns', () => {
    const ids = numbers('row', [0, 1, 2, 3, 4]);
    expect(gridColumn([ids, numbers('c', [7, 7, 7, 7, 7])], 3)?.name).toBe('row');
    expect(gridColumn([], 12)).toBeUndefined();
  });
});
