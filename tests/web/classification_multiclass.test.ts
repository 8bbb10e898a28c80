// The classification lab with C classes, the pieces that are not the engine's: CSV labels as class
// indices (C = the largest + 1, a class without an example kept, each bad label's exact message), text
// labels numbered in sorted order, the moving coordinates a certificate starts with, and the maps' logic
// checked against values worked out by hand: the predicted class and its saturation step, a class's
// margin over the others, the decision boundary's place, the predictive entropy, the order classes are
// refined in, and the CSV export's columns.
import { describe, expect, it } from 'vitest';
import {
  classCount,
  classCounts,
  classIndices,
  dataFromExampleTable,
  dataFromTable,
  defaultChoice,
  defaultDims,
  type ColumnChoice,
} from '../../web/src/labs/classification/state/classification_data.ts';
import {
  boundaries,
  classMargin,
  classPalette,
  LEVELS,
  meanLatentVariance,
  mix,
  predictedClasses,
  predictedColors,
} from '../../web/src/labs/classification/plots/multiclass_plots.ts';
import { entropies } from '../../web/src/labs/classification/worker/multiclass_handlers.ts';
import { refineOrder } from '../../web/src/labs/classification/state/multiclass_store.ts';
import { multiclassCsv } from '../../web/src/labs/classification/ui/export_classification.ts';
import type {
  MulticlassFitResult,
  MulticlassPredictionSummary,
} from '../../web/src/labs/classification/worker/multiclass_protocol.ts';
import { messageOf, tableOf } from './fixtures.ts';

function load(text: string, fileName = 'data.csv', choice?: ColumnChoice) {
  const t = tableOf(text, fileName);
  return dataFromTable(t, choice ?? defaultChoice(t));
}

describe('labels of C classes', () => {
  it('reads class indices 0..C-1, C being the largest + 1', () => {
    const d = load('x,label\n0.1,0\n0.2,2\n0.3,1\n0.4,2\n');
    expect(classCount(d)).toBe(3);
    expect(d.classNames).toEqual(['0', '1', '2']);
    expect(Array.from(d.labels)).toEqual([0, 2, 1, 2]);
    expect(classCounts(d)).toEqual([1, 1, 2]);
  });

  it('keeps a class without an example (the labels skip its index)', () => {
    const d = load('x,label\n0.1,0\n0.2,2\n0.3,3\n');
    expect(classCount(d)).toBe(4);
    expect(classCounts(d)).toEqual([1, 0, 1, 1]);
  });

  it('numbers more than two text values in sorted order and says so', () => {
    const d = load('x,kind\n1,pear\n2,apple\n3,fig\n4,apple\n');
    expect(d.classNames).toEqual(['apple', 'fig', 'pear']);
    expect(Array.from(d.labels)).toEqual([2, 0, 1, 0]);
    expect(d.notes[0]).toBe("labels: 'apple' is class 0, 'fig' is class 1, 'pear' is class 2");
  });

  it('keeps binary labels binary, their class indices 0/1', () => {
    const d = load('x,label\n1,-1\n2,1\n');
    expect(classCount(d)).toBe(2);
    expect(Array.from(classIndices(d))).toEqual([0, 1]);
  });

  it('refuses each bad label with a message naming the file, the column and the row', () => {
    expect(messageOf(() => load('x,label\n1,0\n2,1\n3,-2\n', 'neg.csv'))).toBe(
      "neg.csv: column 'label' (label) row 3 is -2; labels must be class indices 0, 1, 2, … (or -1/+1), or text values",
    );
    expect(messageOf(() => load('x,label\n1,1.5\n', 'half.csv'))).toBe(
      "half.csv: column 'label' (label) row 1 is 1.5; labels must be class indices 0, 1, 2, … (or -1/+1), or text values",
    );
    expect(messageOf(() => load('x,label\n1,2\n2,-1\n', 'mixed.csv'))).toBe(
      "mixed.csv: column 'label' (label) mixes -1/+1 and class indices: row 1 is 2, row 2 is -1",
    );
    expect(messageOf(() => load('x,label\n1,0\n2,10\n', 'eleven.csv'))).toBe(
      "eleven.csv: column 'label' (label) has 11 classes; the lab takes at most 10",
    );
    const letters = Array.from({ length: 11 }, (_, k) => `${k},${String.fromCharCode(97 + k)}`).join('\n');
    expect(messageOf(() => load(`x,label\n${letters}\n`, 'letters.csv'))).toBe(
      "letters.csv: column 'label' (label) has 11 classes; the lab takes at most 10",
    );
  });

  it('splits a bundled example into training rows and held-out rows', () => {
    const d = dataFromExampleTable(tableOf('x1,x2,label\n1,2,0\n3,4,1\n5,6,2\n7,8,1\n', 'three.csv'), 'Three', 3, 2);
    expect(d.name).toBe('Three');
    expect(d.x).toEqual({ data: Float64Array.of(1, 2, 3, 4, 5, 6), rows: 3, cols: 2 });
    expect(d.test).toEqual({ x: { data: Float64Array.of(7, 8), rows: 1, cols: 2 }, labels: Float64Array.of(1) });
    expect(d.imageWidth).toBe(2);
    expect(classCount(d)).toBe(3);
  });

  it('moves every coordinate up to five, else the five that vary most', () => {
    expect(defaultDims(load('a,b,c,label\n0,0,5,0\n1,2,7,1\n'))).toEqual([0, 1, 2]);
    // Column j of 8 takes values 0 and s_j: its spread is s_j^2 / 2; the five largest are columns 7, 1, 5, 3, 6.
    const spread = [1, 7, 2, 5, 0, 6, 4, 8];
    const rows = [spread.map(() => 0), spread].map((r, i) => `${r.join(',')},${i}`).join('\n');
    const d = load(`${spread.map((_, j) => `x${j + 1}`).join(',')},label\n${rows}\n`);
    expect(defaultDims(d)).toEqual([1, 3, 5, 6, 7]);
  });
});

const summary = (
  probability: number[],
  classes: number,
  extra: Partial<MulticlassPredictionSummary> = {},
): MulticlassPredictionSummary => ({
  rows: probability.length / classes,
  classes,
  probability: Float64Array.from(probability),
  latentMean: new Float64Array(probability.length),
  latentVariance: new Float64Array(probability.length),
  entropy: entropies(Float64Array.from(probability), classes),
  ...extra,
});

describe('the maps of C classes', () => {
  it('colours the predicted class by its probability: step 0 at 1/C, LEVELS − 1 at 1', () => {
    const p = Float64Array.of(0.7, 0.2, 0.1, 0.2, 0.2, 0.6, 1 / 3, 1 / 3, 1 / 3, 0, 1, 0);
    const { predicted, top } = predictedClasses(p, 3);
    expect(Array.from(predicted)).toEqual([0, 2, 0, 1]);
    expect(Array.from(top)).toEqual([0.7, 0.6, 1 / 3, 1]);
    // (0.7 − 1/3)/(2/3) = 0.55 → round(0.55·15) = 8; (0.6 − 1/3)/(2/3) = 0.4 → 6; 0 → 0; 1 → 15.
    expect(Array.from(predictedColors(p, 3))).toEqual([8, 2 * LEVELS + 6, 0, LEVELS + 15]);
  });

  it('mixes each class colour from near-white to full', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    const palette = classPalette(3);
    expect(palette.length).toBe(3 * LEVELS);
    expect(palette[LEVELS - 1]).toBe('#0072b2'); // class 0 at full saturation
    expect(palette[2 * LEVELS + LEVELS - 1]).toBe('#009e73'); // class 2
    expect(palette[0]).toBe(mix('#ffffff', '#0072b2', 0.1));
  });

  it("measures a class's margin over the largest other class", () => {
    const m = classMargin(Float64Array.of(0.5, 0.3, 0.2, 0.1, 0.6, 0.3), 3, 1);
    expect(m[0]).toBeCloseTo(-0.2, 15);
    expect(m[1]).toBeCloseTo(0.3, 15);
  });

  it('draws the decision boundary where the predicted class changes', () => {
    // Three columns at x = 0, 1, 2 (two rows, y = 0 and 1), two classes with p0 = 0.9, 0.6, 0.3: class 0's
    // margin 2p0 − 1 = 0.8, 0.2, −0.4 crosses 0 a third of the way from x = 1 to x = 2.
    const p0 = [0.9, 0.6, 0.3];
    const probability = [...p0, ...p0].flatMap((v) => [v, 1 - v]);
    const input = {
      data: load('x1,x2,label\n0,0,0\n2,1,1\n'),
      plane: { x: 0, y: 1, held: [0, 0] },
      grid: {
        points: { data: new Float64Array(12), rows: 6, cols: 2 },
        columns: 3,
        rows: 2,
        xRange: [0, 2] as [number, number],
        yRange: [0, 1] as [number, number],
      },
      prediction: summary(probability, 2),
      signalVariance: 1,
    };
    const mark = boundaries(input);
    if (mark.type !== 'segments') throw new Error('not segments');
    expect(mark.x.length).toBeGreaterThan(0);
    for (const x of Array.from(mark.x)) expect(x).toBeCloseTo(4 / 3, 12);
    expect(new Set(Array.from(mark.y))).toEqual(new Set([0, 1]));
  });

  it('computes the predictive entropy and the mean latent variance', () => {
    const h = entropies(Float64Array.of(0.5, 0.5, 0, 1, 0, 0, 1 / 3, 1 / 3, 1 / 3), 3);
    expect(h[0]).toBeCloseTo(Math.log(2), 15);
    expect(h[1]).toBe(0);
    expect(h[2]).toBeCloseTo(Math.log(3), 15);
    const v = meanLatentVariance(
      summary([0.5, 0.5, 0.2, 0.8], 2, { latentVariance: Float64Array.of(1, 3, 0.5, 0.25) }),
    );
    expect(Array.from(v)).toEqual([2, 0.375]);
  });

  it('refines the predicted class first, then by probability', () => {
    expect(refineOrder([0.2, 0.5, 0.3])).toEqual([1, 2, 0]);
    expect(refineOrder([0.4, 0.2, 0.4])).toEqual([0, 2, 1]);
  });
});

describe('the softmax CSV export', () => {
  it('writes the C latent means, variances and probabilities and the entropy of each point', () => {
    const d = load('x,label\n1,0\n2,1\n3,2\n');
    const data = summary([0.8, 0.1, 0.1, 0.1, 0.8, 0.1, 0.25, 0.25, 0.5], 3, {
      latentMean: Float64Array.from({ length: 9 }, (_, k) => k / 4),
    });
    const fit = { data, grid: null, test: null } as unknown as MulticlassFitResult;
    const lines = multiclassCsv(d, null, fit).trim().split('\n');
    expect(lines[0]).toBe(
      'set,point,x,label,latent_mean_0,latent_mean_1,latent_mean_2,latent_cov_0_0,latent_cov_1_1,latent_cov_2_2,probability_0,probability_1,probability_2,entropy',
    );
    expect(lines.length).toBe(4);
    const last = lines[3].split(',');
    expect(last.slice(0, 7)).toEqual(['training', '2', '3', '2', '1.5', '1.75', '2']);
    expect(Number(last.at(-1))).toBe(-(0.25 * Math.log(0.25) * 2 + 0.5 * Math.log(0.5)));
  });
});

describe('the softmax certificate CSV export', () => {
  it('writes one row per class with its intervals, and the safety verdict with its witness', async () => {
    const { multiclassCertificateCsv } = await import('../../web/src/labs/classification/ui/export_certify.ts');
    const d = load('x1,x2,label\n0,0,0\n1,1,1\n2,2,2\n');
    const extreme = (lower: number, upper: number) => ({
      lower,
      upper,
      witness: Float64Array.of(0.5, 0.25),
      iterations: 3,
      status: 'converged',
    });
    const safety = {
      predictedClass: 1,
      marginLower: 0.125,
      marginUpper: 0.5,
      witness: Float64Array.of(0.25, 0.75),
      witnessProbabilities: Float64Array.of(0.2, 0.6, 0.2),
      status: 'certified',
      stop: 'converged',
      iterations: 7,
    };
    const cert = (c: number) => ({
      classes: 3,
      classIndex: c,
      gamma: 0.5,
      probabilityAtPoint: Float64Array.of(0.25, 0.5, 0.25),
      box: { lower: new Float64Array(2), upper: new Float64Array(2) },
      root: { lower: 0, upper: 1 },
      minimum: extreme(0.1 * c, 0.1 * c + 0.05),
      maximum: extreme(0.5, 0.625),
      safety,
    });
    const m = {
      run: 1,
      model: { signalVariance: 1, lengthScales: [1] },
      point: [0.5, 0.5],
      state: 'done' as const,
      settings: {
        gamma: 0.5,
        dims: [0, 1],
        tolerance: 0.02,
        maxIterations: 10,
        timeLimitSeconds: 0,
        gammas: [],
        search: 'both' as const,
      },
      classes: [0, 1, 2].map((c) => ({
        classIndex: c,
        root: null,
        result: c === 2 ? null : { certificate: cert(c), seconds: 1 },
        state: c === 2 ? ('cancelled' as const) : ('done' as const),
        progress: null,
      })),
    } as never;
    const lines = multiclassCertificateCsv(d, m).trim().split('\n');
    expect(lines.length).toBe(3); // the header and the two classes that have a certificate
    expect(lines[0].split(',').slice(0, 6)).toEqual([
      'class',
      'point_x1',
      'point_x2',
      'gamma',
      'probability_at_point',
      'root_lower',
    ]);
    expect(lines[2].split(',')).toEqual([
      '1',
      '0.5',
      '0.5',
      '0.5',
      '0.5',
      '0',
      '1',
      '0.10000000000000001',
      '0.15000000000000002',
      '3',
      'converged',
      '0.5',
      '0.625',
      '3',
      'converged',
      'yes',
      '1',
      '0.125',
      '0.5',
      'certified',
      '0.25',
      '0.75',
    ]);
  });
});
