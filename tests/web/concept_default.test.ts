// The first concept of new data and the upload summary (issue 24, item 7): a value on 99.8 % of the rows
// is no default (its other class has a handful of rows); the value nearest half of the rows is taken
// when it splits them at least 5 % / 95 %, saying why, and a column where none does is passed over, or
// no concept is chosen and the panel asks. A metadata file's numeric columns are not called
// "embedding columns" in the summary once they are metadata.
import { describe, expect, it } from 'vitest';
import { defaultConcept, defaultPositive } from '../../web/src/common/state/session.ts';
import { loadDataset } from '../../web/src/io/load_files.ts';
import type { Column } from '../../web/src/io/table.ts';
import { npyBytes } from './fixtures.ts';

const strings = (name: string, counts: Record<string, number>): Column => ({
  name,
  kind: 'string',
  values: Object.entries(counts).flatMap(([v, n]) => Array<string>(n).fill(v)),
});

describe('the default concept', () => {
  it('passes over a column whose values split the rows 99.8 % / 0.2 %', () => {
    const pose = strings('pose', { frontal: 998, profile: 2 });
    expect(defaultPositive(pose)).toEqual({ value: 'frontal', reason: 'its most common value', balanced: false });
    const group = strings('group', { a: 400, b: 600 });
    expect(defaultConcept([pose, group])).toEqual({ column: 'group', kind: 'values', positives: ['b'] });
    expect(defaultConcept([pose])).toBeNull();
  });

  it('takes the value nearest half of the rows when "yes" or the most common value is lopsided', () => {
    const label = strings('label', { 0: 900, 1: 20, 2: 80 });
    expect(defaultPositive(label)).toEqual({
      value: '0',
      reason: 'the value nearest half of the rows (90 %); “1” would be on 2 % of them',
      balanced: true,
    });
    expect(defaultConcept([label])).toEqual({ column: 'label', kind: 'values', positives: ['0'] });
  });

  it('keeps "yes" and the most common value when they split the rows at least 5 % / 95 %', () => {
    expect(defaultPositive(strings('smiling', { 0: 95, 1: 5 }))).toEqual({
      value: '1',
      reason: '“1” means yes in a two-valued label column',
      balanced: true,
    });
    expect(defaultPositive(strings('kind', { x: 70, y: 20, z: 10 }))).toEqual({
      value: 'x',
      reason: 'its most common value',
      balanced: true,
    });
  });
});

describe('the upload summary', () => {
  it("calls a metadata file's numeric columns metadata, not embedding columns", async () => {
    const emb = npyBytes(
      '<f4',
      [3, 4],
      Float32Array.from({ length: 12 }, (_, i) => i),
    );
    const meta = 'score,age\n0.5,30\n0.25,41\n1,52\n';
    const d = await loadDataset([
      { blob: new Blob([emb as BlobPart]), name: 'emb.npy' },
      { blob: new Blob([meta]), name: 'meta.csv' },
    ]);
    expect(d.columns.map((c) => c.name)).toEqual(['score', 'age']);
    expect(d.notes.join('; ')).not.toContain('embedding columns');
  });
});
