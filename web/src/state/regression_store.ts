// The regression lab's state and actions: the data (a bundled example or a CSV), the kernel settings,
// the current fit, prior samples and the long tasks with their progress. Engine work goes to the
// regression worker (regression_client.ts); when settings change, the fit follows, debounced.
import { batch, computed, effect, signal } from '@preact/signals';
import { GpprobeError } from '../engine/errors.ts';
import type { ExampleName } from '../engine/regression.ts';
import { FileError } from '../io/table.ts';
import { RegressionClient, type RegressionProgress, type Running, type WorkerPort } from '../worker/regression_client.ts';
import type { ExampleResult, FitResult, Inputs, ParsedTable } from '../worker/regression_protocol.ts';
import { DEFAULT_SETTINGS, fitKey, heldParameters, kernelChoice, settingsFromState, type RegressionSettings } from './kernel_fields.ts';
import { plotGrid } from './regression_grid.ts';
import { defaultChoice, seriesFromTable, type RegressionSeries, type SeriesChoice } from './regression_series.ts';
import { notify } from './engine_tasks.ts';

/** The bundled examples and the settings each starts from (the lecture holds the variance at 1, as
 * the lecture does; the periodic series starts a locally periodic kernel away from its period). */
export const EXAMPLES: readonly { name: ExampleName; title: string; settings: Partial<RegressionSettings> }[] = [
  { name: 'lecture', title: 'Lecture: y = sin x + ½ sin 4x + ε',
    settings: { kernel: 'rbf', variance: 1, lengthScale: 1, noiseVariance: 0.1, hold: ['constant.value'] } },
  { name: 'periodic-extrapolation', title: 'Periodic series, censored tail (extrapolation)',
    settings: { kernel: 'locally-periodic', variance: 1, lengthScale: 1, period: 1.5, decay: 10, noiseVariance: 0.1, hold: [] } },
  { name: 'missing-segments', title: 'Series with missing segments (interpolation)',
    settings: { kernel: 'rbf', variance: 1, lengthScale: 1, noiseVariance: 0.1, hold: [] } },
];

export interface RegressionTask {
  id: number;
  label: string;
  progress: RegressionProgress | null;
  cancel(): void;
}

export interface CurrentFit {
  result: FitResult;
  /** The settings it was fitted with (full precision, unlike the kernel text of its state). */
  settings: RegressionSettings;
  /** fitKey of those settings and the series version this fit belongs to. */
  key: string;
}

export const series = signal<RegressionSeries | null>(null);
export const table = signal<ParsedTable | null>(null);
export const choice = signal<SeriesChoice | null>(null);
export const example = signal<ExampleResult | null>(null);
export const settings = signal<RegressionSettings>(DEFAULT_SETTINGS);
export const currentFit = signal<CurrentFit | null>(null);
export const prior = signal<{ samples: Float64Array; count: number } | { problem: string } | null>(null);
export const tasks = signal<RegressionTask[]>([]);
export const dataError = signal<string | null>(null);

const FIT_LABEL = 'Fitting hyperparameters';
let version = 0;
const seriesVersion = signal(0);
export const grid = computed<Inputs | null>(() => plotGrid(series.value, example.value));
const wantedKey = computed(() => `${seriesVersion.value}|${fitKey(settings.value)}`);
export const fitting = computed(() => tasks.value.some((t) => t.label === FIT_LABEL));

let client: RegressionClient | null = null;
export function regressionClient(): RegressionClient {
  if (!client) throw new Error('the regression lab is not started');
  return client;
}

let nextTask = 1;
/** Runs `running` as a visible task with progress and cancel; resolves with its result. */
export function track<T>(label: string, start: (onProgress: (p: RegressionProgress) => void) => Running<T>): Promise<T> {
  const id = nextTask++;
  const running = start((p) => { tasks.value = tasks.value.map((t) => (t.id === id ? { ...t, progress: p } : t)); });
  tasks.value = [...tasks.value, { id, label, progress: null, cancel: running.cancel }];
  return running.result.finally(() => { tasks.value = tasks.value.filter((t) => t.id !== id); });
}

export function isCancelled(error: unknown): boolean {
  return error instanceof GpprobeError && error.code === 'cancelled';
}

export function report(error: unknown): void {
  if (!isCancelled(error)) notify('error', error instanceof Error ? error.message : String(error));
}

function adopt(next: RegressionSeries, from: { table: ParsedTable | null; choice: SeriesChoice | null; example: ExampleResult | null }): void {
  batch(() => {
    series.value = next;
    table.value = from.table;
    choice.value = from.choice;
    example.value = from.example;
    dataError.value = null;
    currentFit.value = null;
    seriesVersion.value = ++version;
  });
}

/** New data are wanted: a running hyperparameter fit would hold the worker (and the new data) up. */
function stopFitting(): void {
  tasks.value.find((t) => t.label === FIT_LABEL)?.cancel();
}

export async function loadExample(name: ExampleName, seed = 1): Promise<void> {
  stopFitting();
  try {
    const result = await regressionClient().example({ kind: 'example', name, seed }).result;
    const e = result.example;
    const entry = EXAMPLES.find((x) => x.name === name);
    const title = entry?.title ?? name;
    if (entry) updateSettings(entry.settings);
    adopt({
      name: title, x: { data: Float64Array.from(e.x.data), rows: e.x.rows, cols: 1 }, y: e.y,
      xNames: [name === 'lecture' ? 'x' : 't'], yName: 'y',
      heldOut: e.heldOutX.rows > 0 ? { x: Float64Array.from(e.heldOutX.data), y: e.heldOutY } : null,
      notes: e.heldOutX.rows > 0 ? [`${e.heldOutX.rows} points held out of the fit (rings)`] : [],
    }, { table: null, choice: null, example: result });
  } catch (error) {
    report(error);
  }
}

/** Reads a CSV; on any problem the error is shown and the loaded data stays. */
export async function uploadCsv(file: File): Promise<void> {
  stopFitting();
  try {
    const parsed = await track(`Reading ${file.name}`, (p) => regressionClient().parseCsv({ kind: 'parse-csv', file, name: file.name }, p));
    const initial = defaultChoice(parsed);
    adopt(seriesFromTable(parsed, initial), { table: parsed, choice: initial, example: null });
    updateSettings({ hold: [] });  // an example's held values (the lecture's variance) do not carry over
  } catch (error) {
    if (isCancelled(error)) return;
    const message = error instanceof Error ? error.message : String(error);
    dataError.value = error instanceof FileError || message.startsWith(file.name) ? message : `${file.name}: ${message}`;
    notify('error', dataError.value);
  }
}

/** Another choice of y and input columns of the loaded CSV. */
export function chooseColumns(next: SeriesChoice): void {
  const t = table.value;
  if (!t) return;
  try {
    const s = seriesFromTable(t, next);
    adopt(s, { table: t, choice: next, example: null });
  } catch (error) {
    dataError.value = error instanceof Error ? error.message : String(error);
  }
}

export function updateSettings(change: Partial<RegressionSettings>): void {
  settings.value = { ...settings.value, ...change };
}

function fitRequest(s: RegressionSettings, data: RegressionSeries, optimize: boolean) {
  return {
    kind: 'fit' as const, x: data.x, y: data.y, kernel: kernelChoice(s), noiseVariance: s.noiseVariance,
    optimize: optimize ? { restarts: s.restarts, seed: s.seed, fixed: heldParameters(s) } : null,
    grid: grid.value, samples: grid.value ? 3 : 0, seed: s.seed,
    extra: data.heldOut ? { data: data.heldOut.x, rows: data.heldOut.x.length, cols: 1 } : null,
  };
}

/** Maximises the marginal likelihood from the current values; the learned ones replace them. */
export async function fitHyperparameters(): Promise<void> {
  const data = series.value;
  if (!data || fitting.value) return;
  const from = settings.value, at = seriesVersion.value;
  try {
    const result = await track(FIT_LABEL, (p) => regressionClient().fit(fitRequest(from, data, true), p));
    if (seriesVersion.value !== at) return;  // other data arrived meanwhile
    const learned = settingsFromState(from, result.state);
    batch(() => {
      settings.value = learned;
      currentFit.value = { result, settings: learned, key: `${at}|${fitKey(learned)}` };
    });
  } catch (error) {
    if (!isCancelled(error)) report(error);
    else if (seriesVersion.value === at) notify('info', 'Hyperparameter fit cancelled; the previous values are kept.');
  }
}

let manualFit: Running<FitResult> | null = null;
function refit(): void {
  const data = series.value;
  if (!data || fitting.value || currentFit.value?.key === wantedKey.value) return;
  manualFit?.cancel();  // superseded: its answer would be stale
  const key = wantedKey.value, used = settings.value;
  const running = regressionClient().fit(fitRequest(used, data, false));
  manualFit = running;
  running.result.then(
    (result) => { if (wantedKey.value === key) currentFit.value = { result, settings: used, key }; },
    report,
  ).finally(() => { if (manualFit === running) manualFit = null; });
}

function refreshPrior(): void {
  const g = grid.value;
  if (!g) {
    prior.value = null;
    return;
  }
  const s = settings.value;
  // A failure here (a covariance that will not factorise for extreme values) is shown in the plot, not as an alert.
  regressionClient().prior({ kind: 'prior', kernel: kernelChoice(s), mean: currentFit.value?.result.state.mean ?? 0, grid: g, count: 5, seed: s.seed })
    .result.then((p) => { prior.value = p; }, (error: unknown) => {
      if (!isCancelled(error)) prior.value = { problem: error instanceof Error ? error.message : String(error) };
    });
}

/** Runs `run` at most once every `ms`, and once more after the last call (a dragged slider refits
 * as it moves, and ends on its final value). */
function throttled(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      last = Date.now();
      run();
    }, Math.max(0, last + ms - Date.now()));
  };
}

/** Starts the worker (once) and the effects that keep the fit and the prior samples current. */
export function startRegression(spawn: () => WorkerPort): void {
  if (client) return;
  client = new RegressionClient(spawn);
  const scheduleFit = throttled(150, refit);
  effect(() => {
    void wantedKey.value;
    if (series.value && !fitting.value) scheduleFit();
  });
  const schedulePrior = throttled(150, refreshPrior);
  effect(() => {
    void grid.value;
    void currentFit.value?.result.state.mean;
    void fitKey(settings.value);
    schedulePrior();
  });
  if (!series.value) void loadExample('lecture');
}
