// The evaluation lab's CSV exports (exact text, the CLI's columns) and the inputs it derives from the
// session: the query mask, the OOD source and the split of queries into in- and out-of-distribution.
import { describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../../web/src/engine/evaluation/experiments.ts';
import type { Column } from '../../web/src/io/table.ts';
import { oodSource, oodSplit, queryMask } from '../../web/src/common/state/ood_split.ts';
import { cloudsCsv, curvesCsv } from '../../web/src/labs/evaluation/ui/export_curves.ts';
import { rocCsv } from '../../web/src/labs/ood/ui/export_roc.ts';

const result: ExperimentResult = {
  experiment: 'fuzzy',
  observationCounts: [2, 4],
  scheduleLimit: '',
  trials: 3,
  curves: [
    {
      method: 'gpp',
      metric: 'pearson',
      values: new Float64Array(6),
      mean: Float64Array.from([0.1, 0.30000000000000004]),
      sd: Float64Array.from([0, 1e-20]),
    },
    {
      method: 'lpe',
      metric: 'pearson',
      values: new Float64Array(6),
      mean: Float64Array.from([-0.5, 2 / 3]),
      sd: Float64Array.from([0.25, NaN]),
    },
  ],
  clouds: [
    {
      method: 'gpp',
      labelProbability: 0.25,
      observations: 4,
      rows: Uint32Array.from([7, 12]),
      judgedProbability: Float64Array.from([0.5, 0.125]),
      episteme: Float64Array.from([-1.5, 3]),
      alea: Float64Array.from([0.6931471805599453, 0]),
    },
  ],
};

describe('CSV exports', () => {
  it('writes every curve point in the columns of gpprobe evaluate, numbers exact', () => {
    expect(curvesCsv(result)).toBe(
      'method,metric,observations,mean,sd,trials\n' +
        'gpp,pearson,2,0.1,0,3\n' +
        'gpp,pearson,4,0.30000000000000004,1e-20,3\n' +
        'lpe,pearson,2,-0.5,0.25,3\n' +
        'lpe,pearson,4,0.6666666666666666,,3\n',
    );
  });

  it('writes the fuzzy clouds in the columns of gpprobe evaluate --clouds', () => {
    expect(cloudsCsv(result)).toBe(
      'method,label_probability,observations,row,judged_probability,episteme,alea\n' +
        'gpp,0.25,4,7,0.5,-1.5,0.6931471805599453\n' +
        'gpp,0.25,4,12,0.125,3,0\n',
    );
  });

  it('writes every ROC point, with the first threshold +Infinity, and skips methods that could not run', () => {
    const roc = {
      falsePositiveRate: Float64Array.from([0, 0, 1]),
      truePositiveRate: Float64Array.from([0, 0.5, 1]),
      thresholds: Float64Array.from([Infinity, 0.75, -2]),
    };
    expect(
      rocCsv([
        { method: 'gpp', auroc: 0.75, roc },
        { method: 'lpe', error: 'lpe needs observations of both classes' },
      ]),
    ).toBe(
      'method,auroc,false_positive_rate,true_positive_rate,threshold\n' +
        'gpp,0.75,0,0,Infinity\n' +
        'gpp,0.75,0,0.5,0.75\n' +
        'gpp,0.75,1,1,-2\n',
    );
  });
});

describe('evaluation inputs from the session', () => {
  const columns: Column[] = [{ name: 'source', kind: 'string', values: ['web', 'web', 'scan', 'web', 'scan', 'web'] }];

  it('marks the query subset, or leaves the choice to the experiment', () => {
    expect(Array.from(queryMask(Int32Array.from([1, 4]), 6)!)).toEqual([0, 1, 0, 0, 1, 0]);
    expect(queryMask(null, 6)).toBeNull();
  });

  it('finds the OOD set: the loaded file, a column, or none', () => {
    expect(oodSource({ kind: 'file', files: [] }, columns, 6, true)).toEqual({ kind: 'file' });
    expect(oodSource({ kind: 'file', files: [] }, columns, 6, false)).toEqual({ kind: 'none' });
    expect(oodSource({ kind: 'none' }, columns, 6, true)).toEqual({ kind: 'none' });
    const byColumn = oodSource({ kind: 'column', column: 'source', inDistribution: ['web'] }, columns, 6, false);
    expect(byColumn.kind === 'rows' && Array.from(byColumn.inDistribution)).toEqual([1, 1, 0, 1, 0, 1]);
  });

  it('splits the query rows that are not observations into in- and out-of-distribution', () => {
    const byColumn = oodSource({ kind: 'column', column: 'source', inDistribution: ['web'] }, columns, 6, false);
    const split = oodSplit(byColumn, null, 6, [0, 4]);
    expect(Array.from(split!.inside)).toEqual([1, 3, 5]);
    expect(split!.outside.kind === 'rows' && Array.from(split!.outside.rows)).toEqual([2]);
    const subset = oodSplit({ kind: 'file' }, Int32Array.from([1, 2, 3]), 6, [3]);
    expect(Array.from(subset!.inside)).toEqual([1, 2]);
    expect(subset!.outside).toEqual({ kind: 'file' });
    expect(oodSplit({ kind: 'none' }, null, 6, [])).toBeNull();
  });
});
