// What the Compare lab does with files that are not representations of the dataset's rows (issue 36,
// items 1 and 5): a metadata table chosen with the layers is set aside and said so, never compared (it
// would "hold the concept best" by holding its labels); a table holding a concept's own label column is
// refused; a representation with another row count than the dataset whose metadata defines the concepts
// is refused, alone or with others, before the set held is replaced.
import { describe, expect, it } from 'vitest';
import {
  classifyTable,
  readRepresentations,
  type SetAside,
} from '../../web/src/labs/compare/worker/representation_files.ts';
import { blob, npyBytes } from './fixtures.ts';

const layer = (rows: number) =>
  blob(
    npyBytes(
      '<f4',
      [rows, 2],
      Float32Array.from({ length: rows * 2 }, (_, k) => k),
    ),
  );
const digits = { dataset: 'digits', rows: 4, columns: ['digit', 'closed_loop'] };
const text = (s: string) => new Blob([s], { type: 'text/csv' });

describe('metadata among the chosen files', () => {
  it('sets aside metadata.csv (numeric columns digit, closed_loop) and compares only the layers', async () => {
    const setAside: SetAside[] = [];
    const reps = await readRepresentations(
      [
        { name: 'layer_00.npy', blob: layer(4) },
        { name: 'layer_01.npy', blob: layer(4) },
        { name: 'metadata.csv', blob: text('digit,closed_loop\n3,1\n5,0\n8,1\n3,1\n') },
      ],
      { concepts: digits, setAside },
    );
    expect(reps.map((r) => r.name)).toEqual(['layer_00.npy', 'layer_01.npy']);
    expect(setAside.map((a) => a.name)).toEqual(['metadata.csv']);
  });

  it("sets aside a table whose columns are all the dataset's metadata columns, whatever its name", () => {
    const kind = classifyTable(
      'extra.csv',
      { embeddings: {}, dimensionNames: ['digit', 'closed_loop'], columns: [] },
      digits,
    );
    expect(kind).toHaveProperty('metadata');
    expect((kind as { metadata: string }).metadata).toContain("digits's metadata columns");
  });

  it("refuses a representation holding a concept's own label column, naming it", async () => {
    await expect(
      readRepresentations(
        [
          { name: 'layer_00.npy', blob: layer(4) },
          { name: 'leaky.csv', blob: text('u,v,closed_loop\n0.1,0.2,1\n0.3,0.1,0\n0.5,0.5,1\n0.2,0.9,1\n') },
        ],
        { concepts: digits, setAside: [] },
      ),
    ).rejects.toThrow(/leaky\.csv: holds 'closed_loop' among its dimensions/);
  });

  it('keeps an ordinary CSV of embeddings as a representation', () => {
    expect(classifyTable('emb.csv', { embeddings: {}, dimensionNames: ['e0', 'e1'], columns: [] }, digits)).toBe(
      'representation',
    );
  });
});

describe("a representation of another row count than the concepts' dataset", () => {
  it('is refused chosen alone, naming the file and both counts', async () => {
    await expect(readRepresentations([{ name: 'short.npy', blob: layer(3) }], { concepts: digits })).rejects.toThrow(
      /short\.npy: has 3 rows; digits, whose metadata defines the concepts, has 4/,
    );
  });
  it('is refused chosen with good layers', async () => {
    await expect(
      readRepresentations(
        [
          { name: 'layer_00.npy', blob: layer(4) },
          { name: 'short.npy', blob: layer(3) },
        ],
        { concepts: digits },
      ),
    ).rejects.toThrow(/short\.npy/);
  });
});
