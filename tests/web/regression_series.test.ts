// CSV text to the regression lab's series, through the app's own parser: which columns become x and y,
// dates as days, the row index, the plotting range, and each bad input's exact message.
import { describe, expect, it } from 'vitest';
import { evenGrid, inputRange, plotGrid } from '../../web/src/labs/regression/state/regression_grid.ts';
import {
  defaultChoice,
  parseIsoDate,
  seriesFromTable,
  type SeriesChoice,
} from '../../web/src/labs/regression/state/regression_series.ts';
import { messageOf, tableOf } from './fixtures.ts';

function load(text: string, fileName = 'data.csv', choice?: SeriesChoice) {
  const t = tableOf(text, fileName);
  return seriesFromTable(t, choice ?? defaultChoice(t));
}

describe('choosing columns', () => {
  it('takes y by name, every other numeric column as x, row-major', () => {
    const s = load('a,y,b\n1,10,2\n3,30,4\n5,50,6\n');
    expect(s.yName).toBe('y');
    expect(Array.from(s.y)).toEqual([10, 30, 50]);
    expect(s.xNames).toEqual(['a', 'b']);
    expect(s.x).toEqual({ data: Float64Array.from([1, 2, 3, 4, 5, 6]), rows: 3, cols: 2 });
  });

  it('takes the last numeric column as y without a header, and a time column alone as x', () => {
    expect(defaultChoice(tableOf('0.5,1,2\n0.7,3,4\n'))).toEqual({ y: 'column 3', x: ['column 1', 'column 2'] });
    expect(defaultChoice(tableOf('t,other,value\n0,5,1\n1,6,2\n'))).toEqual({ y: 'value', x: ['t'] });
  });

  it('reads ISO dates as days since the first, and ignores text columns with a note', () => {
    const s = load('date,label,value\n2021-03-03,a,1\n2021-03-01,b,2\n2021-03-02T12:00,c,3\n');
    expect(s.xNames).toEqual(['date (days since 2021-03-01)']);
    expect(Array.from(s.x.data)).toEqual([2, 0, 1.5]);
    expect(s.notes).toEqual(["not used: 'label'"]);
  });

  it('uses the row index when no input is chosen or a file has y alone', () => {
    const s = load('y\n3\n1\n4\n');
    expect(s.xNames).toEqual(['row index']);
    expect(Array.from(s.x.data)).toEqual([0, 1, 2]);
    expect(s.notes).toEqual(['no input column chosen: the row index is the input']);
  });

  it('parses ISO dates strictly, in UTC unless they carry an offset', () => {
    expect(parseIsoDate('2021-03-01')).toBe(Date.UTC(2021, 2, 1));
    expect(parseIsoDate('2021-03-01 06:30:15.5')).toBe(Date.UTC(2021, 2, 1, 6, 30, 15, 500));
    expect(parseIsoDate('2021-03-01T06:30+02:00')).toBe(Date.UTC(2021, 2, 1, 4, 30));
    expect(parseIsoDate('2021-02-30')).toBeNaN();
    expect(parseIsoDate('2021-13-01')).toBeNaN();
    expect(parseIsoDate('March 1')).toBeNaN();
  });
});

describe('bad input names the file, the column and the row', () => {
  it.each([
    ['t,y\n1,2\n2,oops\n', 'broken.csv', "broken.csv: column 'y' (y) row 2 is 'oops', not a number"],
    ['t,y\n1,2\n2,\n', 'gap.csv', "gap.csv: column 'y' (y) row 2 is empty, not a number"],
    ['x,y\n1,2\nnan,3\n', 'nan.csv', "nan.csv: column 'x' (x) row 2 is NaN"],
    ['x,y\n1,2\n2,inf\n', 'inf.csv', "inf.csv: column 'y' (y) row 2 is +Inf"],
    ['x,y\n1,2\n', 'one.csv', 'one.csv: needs at least 2 data rows, has 1'],
    ['name,kind\na,b\nc,d\n', 'words.csv', 'words.csv: has no numeric column to use as y'],
    [
      'date,y\n2021-02-28,1\n2021-02-30,2\n',
      'dates.csv',
      "dates.csv: column 'date' (x) row 2: '2021-02-30' is not a valid date",
    ],
  ])('%s', (text, fileName, expected) => {
    expect(messageOf(() => load(text, fileName))).toBe(expected);
  });

  it('rejects impossible choices and files too large for an exact GP', () => {
    const t = tableOf('a,y\n1,2\n3,4\n', 'c.csv');
    expect(messageOf(() => seriesFromTable(t, { y: 'y', x: ['z'] }))).toBe("c.csv: has no column 'z' (x)");
    expect(messageOf(() => seriesFromTable(t, { y: 'y', x: ['y'] }))).toBe(
      "c.csv: column 'y' cannot be both an input and y",
    );
    const big = tableOf(`x,y\n${Array.from({ length: 5001 }, (_, i) => `${i},1`).join('\n')}\n`, 'big.csv');
    expect(messageOf(() => seriesFromTable(big, defaultChoice(big)))).toBe(
      'big.csv: has 5,001 rows; exact GP regression here takes at most 5,000 points (an n × n kernel matrix, n³ work per likelihood)',
    );
  });
});

describe('where the lab predicts', () => {
  it('widens the data range by a tenth on each side for a 1-D input, and has no line for more inputs', () => {
    const s = load('x,y\n2,0\n4,1\n3,0\n');
    expect(inputRange(s, null)).toEqual([1.8, 4.2]);
    const g = plotGrid(s, null, 5)!;
    expect(g.rows).toBe(5);
    expect(g.data[0]).toBeCloseTo(1.8, 14);
    expect(g.data[4]).toBeCloseTo(4.2, 14);
    expect(plotGrid(load('a,b,y\n1,2,3\n4,5,6\n'), null)).toBeNull();
    expect(Array.from(evenGrid([0, 1], 3).data)).toEqual([0, 0.5, 1]);
  });
});
