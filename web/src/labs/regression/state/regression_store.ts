// The regression lab's state and actions: the lab's vocabulary from the core (kernels with their
// parameters, examples), the data (a bundled example or a CSV), the kernel settings, the current fit and
// prior samples. Engine work goes through the one worker client and task store (engine_tasks.ts): the
// hyperparameter fit is a 'terminate' request (a long wasm call, cancelled by ending the worker
// instance that runs it), the rest runs beside the probe lab's work. When settings change, the fit
// follows, throttled.
import { batch, computed, effect, signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import type { RegressionVocabulary } from '../../../engine/regression/regression.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import type { ExampleResult, FitRequest, FitResult, Inputs } from '../worker/protocol.ts';
import { notify, report, request, startTask, tasks } from '../../../common/state/engine_tasks.ts';
import {
  DEFAULT_SETTINGS,
  fitKey,
  heldParameters,
  kernelSpec,
  noiseVariance,
  settingsFromState,
  type RegressionSettings,
} from './kernel_fields.ts';
import { plotGrid } from './regression_grid.ts';
import { dataSource } from '../../../common/state/data_source.ts';
import { throttled } from '../../../common/state/throttled.ts';
import { defaultChoice, seriesFromTable, type RegressionSeries, type SeriesChoice } from './regression_series.ts';

export interface CurrentFit {
  result: FitResult;
  /** The settings it was fitted with. */
  settings: RegressionSettings;
  /** fitKey of those settings and the series version this fit belongs to. */
  key: string;
}

export const vocabulary = signal<RegressionVocabulary | null>(null);
export const settings = signal<RegressionSettings>(DEFAULT_SETTINGS);
export const currentFit = signal<CurrentFit | null>(null);
export const prior = signal<{ samples: Float64Array; count: number } | { problem: string } | null>(null);

let version = 0;
const seriesVersion = signal(0);
export const grid = computed<Inputs | null>(() => plotGrid(series.value, example.value));
/** The settings' fit key, or null while the vocabulary or a kernel is missing. */
const settingsKey = computed(() =>
  vocabulary.value && settings.value.kernel ? fitKey(vocabulary.value, settings.value) : null,
);
const wantedKey = computed(() => (settingsKey.value ? `${seriesVersion.value}|${settingsKey.value}` : null));
export const fitting = computed(() => tasks.value.some((t) => t.kind === 'regression-optimize'));
/** Whether the fit shown is the one of the values in the fields (false while a refit is on its way). */
export const fitIsCurrent = computed(() => currentFit.value !== null && currentFit.value.key === wantedKey.value);

/** New data are wanted: a running hyperparameter fit would hold the new data up. */
function stopFitting(): void {
  tasks.value.find((t) => t.kind === 'regression-optimize')?.cancel?.();
}

/** The data: a bundled example or a CSV with its choice of y and input columns (common/state/data_source.ts). */
const source = dataSource<RegressionSeries, SeriesChoice, ExampleResult>({
  fromTable: seriesFromTable,
  defaultChoice,
  adopted: () => {
    currentFit.value = null;
    seriesVersion.value = ++version;
  },
  beforeLoad: stopFitting,
  // Nothing set or learned for other data carries over (a CSV had inherited a fitted noise of 1e-5): the
  // kernel's starting values and the default noise, nothing held, said when something changes.
  // The model the core says the example is meant for: its kernel, held parameters and noise; nothing
  // set or learned before carries over.
  afterExample: ({ example: e }) => {
    const was = settings.value.values;
    dataDefaults = {
      kernel: e.kernel.name,
      values: { ...e.kernel.parameters, [vocabulary.value!.noiseParameter]: e.noiseVariance },
      hold: e.held,
    };
    resetHyperparameters();
    if (Object.keys(was).length > 0 && JSON.stringify(was) !== JSON.stringify(settings.value.values)) {
      notify(
        'info',
        `New data: the hyperparameters are ${e.title}'s starting values; none set or learned before is kept.`,
      );
    }
  },
  afterUpload: () => {
    const was = settings.value;
    dataDefaults = { kernel: was.kernel, values: {}, hold: [] };
    resetHyperparameters();
    if (Object.keys(was.values).length > 0 || was.hold.length > 0) {
      notify(
        'info',
        "New data: the kernel's hyperparameters and the noise are back at their starting values, none held.",
      );
    }
  },
});
export const { data: series, table, choice, example, error: dataError, uploadCsv, chooseColumns } = source;

/** The hyperparameters the loaded data start from (an example's model, or for a CSV the kernel's
 * starting values): what Reset goes back to. */
let dataDefaults: Pick<RegressionSettings, 'kernel' | 'values' | 'hold'> = { kernel: '', values: {}, hold: [] };

/** The hyperparameters back at the loaded data's starting values (the Reset button; new data do it too). */
export function resetHyperparameters(): void {
  updateSettings({
    values: { ...dataDefaults.values },
    hold: [...dataDefaults.hold],
    ...(dataDefaults.kernel ? { kernel: dataDefaults.kernel } : {}),
  });
}

export async function loadExample(name: string, seed = 1): Promise<void> {
  await source.loadExample(async () => {
    const result = await request(null, { kind: 'regression-example', name, seed });
    const e = result.example;
    return {
      data: {
        name: e.title,
        x: { data: Float64Array.from(e.x.data), rows: e.x.rows, cols: 1 },
        y: e.y,
        xNames: [e.inputName],
        yName: 'y',
        heldOut: e.heldOutX.rows > 0 ? { x: Float64Array.from(e.heldOutX.data), y: e.heldOutY } : null,
        notes: e.heldOutX.rows > 0 ? [`${e.heldOutX.rows} points held out of the fit (rings)`] : [],
      },
      example: result,
    };
  }, report);
}

export function updateSettings(change: Partial<RegressionSettings>): void {
  settings.value = { ...settings.value, ...change };
}

/** Sets one field (a kernel parameter or the noise) by its name. */
export function setValue(name: string, value: number): void {
  updateSettings({ values: { ...settings.value.values, [name]: value } });
}

function fitRequest(v: RegressionVocabulary, s: RegressionSettings, data: RegressionSeries): FitRequest {
  return {
    x: data.x,
    y: data.y,
    kernel: kernelSpec(v, s),
    noiseVariance: noiseVariance(v, s),
    grid: grid.value,
    samples: grid.value ? 3 : 0,
    seed: s.seed,
    extra: data.heldOut ? { data: data.heldOut.x, rows: data.heldOut.x.length, cols: 1 } : null,
  };
}

/** Maximises the marginal likelihood from the current values; the learned ones replace them. */
export async function fitHyperparameters(): Promise<void> {
  const data = series.value,
    v = vocabulary.value;
  if (!data || !v || fitting.value) return;
  const from = settings.value,
    at = seriesVersion.value;
  try {
    const result = await request('Fitting hyperparameters', {
      kind: 'regression-optimize',
      ...fitRequest(v, from, data),
      restarts: from.restarts,
      fixed: heldParameters(v, from),
    });
    if (seriesVersion.value !== at) return; // other data arrived meanwhile
    const learned = settingsFromState(v, from, result.state);
    batch(() => {
      settings.value = learned;
      currentFit.value = { result, settings: learned, key: `${at}|${fitKey(v, learned)}` };
    });
  } catch (error) {
    if (!isCancelled(error)) report(error);
    else if (seriesVersion.value === at) notify('info', 'Hyperparameter fit cancelled; the previous values are kept.');
  }
}

let manualFit: RunningRequest<FitResult> | null = null;
function refit(): void {
  const data = series.value,
    v = vocabulary.value,
    key = wantedKey.value;
  if (!data || !v || !key || fitting.value || currentFit.value?.key === key) return;
  manualFit?.cancel(); // superseded: its answer would be stale
  const used = settings.value;
  const running = startTask(null, { kind: 'regression-fit', ...fitRequest(v, used, data) });
  manualFit = running;
  running.result
    .then((result) => {
      if (wantedKey.value === key) currentFit.value = { result, settings: used, key };
    }, report)
    .finally(() => {
      if (manualFit === running) manualFit = null;
    });
}

function refreshPrior(): void {
  const g = grid.value,
    v = vocabulary.value;
  if (!g || !v || !settings.value.kernel) {
    prior.value = null;
    return;
  }
  const s = settings.value;
  // A failure here (a covariance that will not factorise for extreme values) is shown in the plot, not as an alert.
  request(null, {
    kind: 'regression-prior',
    kernel: kernelSpec(v, s),
    mean: currentFit.value?.result.state.mean ?? 0,
    grid: g,
    count: 5,
    seed: s.seed,
  }).then(
    (p) => {
      prior.value = p;
    },
    (error: unknown) => {
      if (!isCancelled(error)) prior.value = { problem: error instanceof Error ? error.message : String(error) };
    },
  );
}

/** Asks the core for the lab's vocabulary and starts the effects that keep the fit and prior current. */
let started = false;
export async function startRegression(): Promise<void> {
  if (started) return;
  started = true;
  try {
    vocabulary.value = await request(null, { kind: 'regression-vocabulary' });
  } catch (error) {
    report(error);
    return;
  }
  const scheduleFit = throttled(150, refit);
  effect(() => {
    void wantedKey.value;
    if (series.value && !fitting.value) scheduleFit();
  });
  const schedulePrior = throttled(150, refreshPrior);
  effect(() => {
    void grid.value;
    void currentFit.value?.result.state.mean;
    void settingsKey.value;
    schedulePrior();
  });
  if (!source.requested()) await loadExample(vocabulary.value.examples[0].name);
}
