// The regression lab's bookkeeping: learned values land in the right fields (named by the core), held
// parameters follow the kernel, the predictions CSV is exact, and the one worker client cancels each
// request kind by its policy: the optimiser by terminating the instance that runs it (never the one
// holding the embeddings), work in chunks by telling the worker, short work by dropping the answer.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createRegressionEngine,
  type RegressionState,
  type RegressionVocabulary,
} from '../../web/src/engine/regression/regression.ts';
import {
  fieldsOf,
  fitKey,
  heldParameters,
  kernelSpec,
  noiseVariance,
  settingsFromState,
  DEFAULT_SETTINGS,
} from '../../web/src/labs/regression/state/kernel_fields.ts';
import type { RegressionSeries } from '../../web/src/labs/regression/state/regression_series.ts';
import { predictionsCsv } from '../../web/src/labs/regression/ui/predictions_csv.ts';
import { EngineClient } from '../../web/src/app/engine_client.ts';
import type { FromWorker, ToWorker } from '../../web/src/common/worker/protocol.ts';

let vocabulary: RegressionVocabulary;
beforeAll(async () => {
  vocabulary = (await createRegressionEngine()).vocabulary();
});

function state(names: string[], values: number[], noise: number): RegressionState {
  return {
    kernel: { name: '', parameters: Object.fromEntries(names.map((n, i) => [n, values[i]])) },
    description: '',
    noiseVariance: noise,
    mean: 0,
    logMarginalLikelihood: 0,
    size: 1,
    dimension: 1,
    runValues: new Float64Array(0),
    iterations: 0,
  };
}

describe('kernel fields', () => {
  it("puts learned values into the fields of the kernel by the core's parameter names", () => {
    const s = { ...DEFAULT_SETTINGS, kernel: 'locally-periodic' };
    expect(fieldsOf(vocabulary, 'locally-periodic')).toEqual([
      'constant.value',
      'periodic.length_scale',
      'periodic.period',
      'rbf.length_scale',
      'noise_variance',
    ]);
    const learned = settingsFromState(
      vocabulary,
      s,
      state(
        ['constant.value', 'periodic.length_scale', 'periodic.period', 'rbf.length_scale'],
        [1.5, 0.66, 4.0, 87.6],
        0.019,
      ),
    );
    expect(kernelSpec(vocabulary, learned)).toEqual({
      name: 'locally-periodic',
      parameters: {
        'constant.value': 1.5,
        'periodic.length_scale': 0.66,
        'periodic.period': 4,
        'rbf.length_scale': 87.6,
      },
    });
    expect(noiseVariance(vocabulary, learned)).toBe(0.019);
    const linear = settingsFromState(
      vocabulary,
      { ...s, kernel: 'linear' },
      state(['constant.value', 'linear.offset'], [2, 0.5], 0.1),
    );
    expect(Object.values(kernelSpec(vocabulary, linear).parameters)).toEqual([2, 0.5]);
  });

  it('holds only parameters the kernel has, and keys a fit by the values it uses', () => {
    const rbf = { ...DEFAULT_SETTINGS, kernel: 'rbf' };
    const s = { ...rbf, hold: ['constant.value', 'periodic.period', 'noise_variance'] };
    expect(heldParameters(vocabulary, s)).toEqual(['constant.value', 'noise_variance']);
    expect(heldParameters(vocabulary, { ...s, kernel: 'periodic' })).toEqual([
      'constant.value',
      'periodic.period',
      'noise_variance',
    ]);
    const set = (name: string, value: number) => ({ ...rbf, values: { [name]: value } });
    expect(fitKey(vocabulary, set('periodic.period', 7))).toBe(fitKey(vocabulary, rbf)); // rbf has no period
    expect(fitKey(vocabulary, set('rbf.length_scale', 2))).not.toBe(fitKey(vocabulary, rbf));
    expect(fitKey(vocabulary, set('noise_variance', 0.2))).not.toBe(fitKey(vocabulary, rbf));
  });
});

describe('predictions CSV', () => {
  it('writes every set with exact numbers, the statuses by name, and quoted headers', () => {
    const data: RegressionSeries = {
      name: 'd',
      x: { data: Float64Array.from([0.1, 0.2]), rows: 2, cols: 1 },
      y: Float64Array.from([1, 2]),
      xNames: ['t, days'],
      yName: 'y',
      heldOut: null,
      notes: [],
    };
    const column = (a: number, b: number) => Float64Array.from([a, b]);
    const prediction = {
      mean: column(1 / 3, 2),
      latentVariance: column(0.01, 0.02),
      observationVariance: column(0.11, 0.12),
      latentLower: column(0.1, 1.7),
      latentUpper: column(0.5, 2.3),
      observationLower: column(-0.3, 1.3),
      observationUpper: column(1, 2.7),
      knowledge: column(0.99, 0.98),
    };
    const text = predictionsCsv(data, [
      {
        set: 'data',
        x: data.x.data,
        y: data.y,
        prediction,
        classification: { statuses: Uint8Array.from([0, 1]), scores: column(2, 3.5) },
      },
      { set: 'grid', x: Float64Array.from([5, 6]), y: null, prediction, classification: null },
    ]);
    expect(text).toBe(
      [
        'set,"t, days",y,mean,latent_variance,observation_variance,latent_lower,latent_upper,observation_lower,observation_upper,knowledge,anomaly_score,status',
        'data,0.1,1,0.3333333333333333,0.01,0.11,0.1,0.5,-0.3,1,0.99,2,normal',
        'data,0.2,2,2,0.02,0.12,1.7,2.3,1.3,2.7,0.98,3.5,anomaly',
        'grid,5,,0.3333333333333333,0.01,0.11,0.1,0.5,-0.3,1,0.99,,',
        'grid,6,,2,0.02,0.12,1.7,2.3,1.3,2.7,0.98,,',
        '',
      ].join('\n'),
    );
  });
});

/** A stand-in worker: records what it is sent, answers when told to. */
class FakeWorker {
  onmessage: ((event: MessageEvent<FromWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  sent: ToWorker[] = [];
  terminated = false;
  postMessage(message: ToWorker): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(message: FromWorker): void {
    this.onmessage?.(new MessageEvent('message', { data: message }));
  }
  requests() {
    return this.sent.flatMap((m) => (m.type === 'request' ? [m] : []));
  }
}

function clientWithFakes() {
  const workers: FakeWorker[] = [];
  const client = new EngineClient(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

const optimize = {
  kind: 'regression-optimize' as const,
  x: { data: new Float64Array(1), rows: 1, cols: 1 },
  y: new Float64Array(1),
  kernel: { name: 'rbf' },
  noiseVariance: 0.1,
  grid: null,
  samples: 0,
  seed: 0,
  extra: null,
  restarts: 0,
  fixed: [],
};

describe('the engine worker client', () => {
  it('resolves typed results and forwards progress', async () => {
    const { client, workers } = clientWithFakes();
    const progress: number[] = [];
    const running = client.request({
      kind: 'regression-roc',
      scores: new Float64Array(1),
      isAnomaly: new Uint8Array(1),
      knowledge: new Float64Array(1),
      rho: 0.5,
    });
    const parsed = client.request({ kind: 'parse-table', file: new Blob(['x']), name: 'a.csv' }, (p) =>
      progress.push(p.done),
    );
    const [roc, csv] = workers[0].requests();
    workers[0].reply({ type: 'progress', id: csv.id, progress: { stage: 'reading', done: 0.5, total: 1 } });
    const table = { fileName: 'a.csv', rows: 0, columns: [] };
    workers[0].reply({ type: 'result', id: csv.id, kind: 'parse-table', result: table });
    expect(await parsed.result).toEqual(table);
    expect(progress).toEqual([0.5]);
    workers[0].reply({ type: 'result', id: roc.id, kind: 'parse-table', result: table });
    await expect(running.result).rejects.toThrow('a regression-roc request was answered with parse-table');
  });

  it('cancels a long wasm call by terminating its own instance, and sends the waiting requests to a fresh one', async () => {
    const { client, workers } = clientWithFakes();
    expect(workers).toHaveLength(1); // the resident instance only: the other starts when first needed
    const long = client.request(optimize);
    const waiting = client.request({ kind: 'anomaly-experiment', seed: 0, statusRho: 0.5, theta: 3, rhos: [0.5] });
    expect(workers).toHaveLength(2);
    long.cancel();
    await expect(long.result).rejects.toMatchObject({ code: 'cancelled', message: 'cancelled' });
    expect(workers[1].terminated).toBe(true);
    expect(workers[0].terminated).toBe(false); // the embeddings stay
    expect(workers).toHaveLength(3);
    expect(workers[2].requests().map((m) => m.request.kind)).toEqual(['anomaly-experiment']);
    const id = workers[2].requests()[0].id;
    workers[1].reply({ type: 'error', id, code: 'internal_error', message: 'stale' }); // ignored: old instance
    workers[2].reply({ type: 'error', id, code: 'invalid_argument', message: 'bad seed' });
    await expect(waiting.result).rejects.toMatchObject({ code: 'invalid_argument', message: 'bad seed' });
  });

  it('cancels work in chunks by telling the worker, and short work by dropping its answer', async () => {
    const { client, workers } = clientWithFakes();
    const chunked = client.request({
      kind: 'regression-predict',
      x: optimize.x,
      y: optimize.y,
      kernel: { name: 'rbf' },
      noiseVariance: 0.1,
      test: optimize.x,
    });
    const short = client.request({ kind: 'regression-vocabulary' });
    chunked.cancel();
    short.cancel();
    await expect(short.result).rejects.toMatchObject({ code: 'cancelled' });
    expect(workers).toHaveLength(1);
    expect(workers[0].terminated).toBe(false);
    expect(workers[0].sent.filter((m) => m.type === 'cancel').map((m) => m.id)).toEqual([chunked.id, short.id]);
    // The chunked request ends when the worker stops it at a chunk boundary.
    workers[0].reply({ type: 'error', id: chunked.id, code: 'cancelled', message: 'cancelled' });
    await expect(chunked.result).rejects.toMatchObject({ code: 'cancelled' });
  });
});
