// The regression lab's bookkeeping: learned values land in the right fields, held parameters follow the
// kernel, the predictions CSV is exact, and the worker client cancels by respawning the worker.
import { describe, expect, it } from 'vitest';
import { ANOMALY_STATUSES, type RegressionState } from '../../web/src/engine/regression.ts';
import {
  DEFAULT_SETTINGS, fieldsOf, fitKey, heldParameters, kernelChoice, settingsFromState,
} from '../../web/src/state/kernel_fields.ts';
import type { RegressionSeries } from '../../web/src/state/regression_series.ts';
import { predictionsCsv } from '../../web/src/ui/regression/predictions_csv.ts';
import { RegressionClient } from '../../web/src/worker/regression_client.ts';
import { STATUS_NAMES, type FromRegressionWorker, type ToRegressionWorker } from '../../web/src/worker/regression_protocol.ts';

function state(names: string[], values: number[], noiseVariance: number): RegressionState {
  return { kernel: '', names, values: Float64Array.from(values), noiseVariance, mean: 0, logMarginalLikelihood: 0, size: 1,
    dimension: 1, runValues: new Float64Array(0), iterations: 0, clampedVariances: 0, jitter: 0 };
}

describe('kernel fields', () => {
  it('puts learned values into the fields of the kernel by the core\'s parameter names', () => {
    const s = { ...DEFAULT_SETTINGS, kernel: 'locally-periodic' as const };
    expect(fieldsOf('locally-periodic').map((f) => f.parameter)).toEqual(
      ['constant.value', 'periodic.length_scale', 'periodic.periodicity', 'rbf.length_scale', 'noise_variance']);
    const learned = settingsFromState(s, state(
      ['constant.value', 'periodic.length_scale', 'periodic.periodicity', 'rbf.length_scale'], [1.5, 0.66, 4.0, 87.6], 0.019));
    expect(kernelChoice(learned)).toEqual({ name: 'locally-periodic', variance: 1.5, lengthScale: 0.66, period: 4, decay: 87.6, offset: 1 });
    expect(learned.noiseVariance).toBe(0.019);
    const linear = settingsFromState({ ...s, kernel: 'linear' }, state(['constant.value', 'linear.offset'], [2, 0.5], 0.1));
    expect([linear.variance, linear.offset, linear.lengthScale]).toEqual([2, 0.5, 1]);
  });

  it('holds only parameters the kernel has, and keys a fit by the values it uses', () => {
    const s = { ...DEFAULT_SETTINGS, hold: ['constant.value', 'periodic.periodicity', 'noise_variance'] };
    expect(heldParameters(s)).toEqual(['constant.value', 'noise_variance']);
    expect(heldParameters({ ...s, kernel: 'periodic' })).toEqual(['constant.value', 'periodic.periodicity', 'noise_variance']);
    expect(fitKey({ ...DEFAULT_SETTINGS, period: 7 })).toBe(fitKey(DEFAULT_SETTINGS));  // rbf has no period
    expect(fitKey({ ...DEFAULT_SETTINGS, lengthScale: 2 })).not.toBe(fitKey(DEFAULT_SETTINGS));
    expect(fitKey({ ...DEFAULT_SETTINGS, noiseVariance: 0.2 })).not.toBe(fitKey(DEFAULT_SETTINGS));
  });
});

describe('predictions CSV', () => {
  it('writes every set with exact numbers, the statuses by name, and quoted headers', () => {
    expect(STATUS_NAMES).toEqual(ANOMALY_STATUSES);
    const data: RegressionSeries = {
      name: 'd', x: { data: Float64Array.from([0.1, 0.2]), rows: 2, cols: 1 }, y: Float64Array.from([1, 2]),
      xNames: ['t, days'], yName: 'y', heldOut: null, notes: [],
    };
    const column = (a: number, b: number) => Float64Array.from([a, b]);
    const prediction = {
      mean: column(1 / 3, 2), latentVariance: column(0.01, 0.02), observationVariance: column(0.11, 0.12),
      latentLower: column(0.1, 1.7), latentUpper: column(0.5, 2.3), observationLower: column(-0.3, 1.3),
      observationUpper: column(1, 2.7), knowledge: column(0.99, 0.98),
    };
    const text = predictionsCsv(data, [
      { set: 'data', x: data.x.data, y: data.y, prediction, classification: { statuses: Uint8Array.from([0, 1]), scores: column(2, 3.5) } },
      { set: 'grid', x: Float64Array.from([5, 6]), y: null, prediction, classification: null },
    ]);
    expect(text).toBe([
      'set,"t, days",y,mean,latent_variance,observation_variance,latent_lower,latent_upper,observation_lower,observation_upper,knowledge,anomaly_score,status',
      'data,0.1,1,0.3333333333333333,0.01,0.11,0.1,0.5,-0.3,1,0.99,2,normal',
      'data,0.2,2,2,0.02,0.12,1.7,2.3,1.3,2.7,0.98,3.5,anomaly',
      'grid,5,,0.3333333333333333,0.01,0.11,0.1,0.5,-0.3,1,0.99,,',
      'grid,6,,2,0.02,0.12,1.7,2.3,1.3,2.7,0.98,,',
      '',
    ].join('\n'));
  });
});

/** A stand-in worker: records what it is sent, answers when told to. */
class FakeWorker {
  onmessage: ((event: MessageEvent<FromRegressionWorker>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  sent: ToRegressionWorker[] = [];
  terminated = false;
  postMessage(message: ToRegressionWorker): void { this.sent.push(message); }
  terminate(): void { this.terminated = true; }
  reply(message: FromRegressionWorker): void { this.onmessage?.(new MessageEvent('message', { data: message })); }
}

function clientWithFakes() {
  const workers: FakeWorker[] = [];
  const client = new RegressionClient(() => {
    const w = new FakeWorker();
    workers.push(w);
    return w;
  });
  return { client, workers };
}

describe('the regression worker client', () => {
  it('resolves typed results and forwards progress', async () => {
    const { client, workers } = clientWithFakes();
    const progress: number[] = [];
    const running = client.roc({ kind: 'roc', scores: new Float64Array(1), isAnomaly: new Uint8Array(1), knowledge: new Float64Array(1), rho: 0.5 });
    const parsed = client.parseCsv({ kind: 'parse-csv', file: new Blob(['x']), name: 'a.csv' }, (p) => progress.push(p.done));
    const [roc, csv] = workers[0].sent;
    workers[0].reply({ type: 'progress', id: csv.id, stage: 'reading', done: 0.5, total: 1 });
    const table = { fileName: 'a.csv', rows: 0, columns: [] };
    workers[0].reply({ type: 'result', id: csv.id, response: { kind: 'parse-csv', value: table } });
    expect(await parsed.result).toEqual(table);
    expect(progress).toEqual([0.5]);
    workers[0].reply({ type: 'result', id: roc.id, response: { kind: 'parse-csv', value: table } });
    await expect(running.result).rejects.toThrow('a roc request was answered with parse-csv');
  });

  it('cancels by terminating the worker, and sends the waiting requests to a fresh one', async () => {
    const { client, workers } = clientWithFakes();
    const long = client.experiment({ kind: 'experiment', seed: 0, statusRho: 0.5, theta: 3, rhos: [0.5] });
    const waiting = client.example({ kind: 'example', name: 'lecture', seed: 1 });
    long.cancel();
    await expect(long.result).rejects.toMatchObject({ code: 'cancelled', message: 'cancelled' });
    expect(workers[0].terminated).toBe(true);
    expect(workers).toHaveLength(2);
    expect(workers[1].sent.map((m) => m.request.kind)).toEqual(['example']);
    workers[0].reply({ type: 'error', id: workers[1].sent[0].id, code: 'internal_error', message: 'stale' });  // ignored: old worker
    workers[1].reply({ type: 'error', id: workers[1].sent[0].id, code: 'invalid_argument', message: 'bad name' });
    await expect(waiting.result).rejects.toMatchObject({ code: 'invalid_argument', message: 'bad name' });
  });
});
