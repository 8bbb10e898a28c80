// The evaluation lab's state: the settings, the last result of each experiment (kept when the user
// switches tabs, marked stale when the data, concept, query subset or OOD set change), and the run in
// progress with its progress and cancel. The experiments run in the engine worker.
import { computed, effect, signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import type { ExperimentKind } from '../../../engine/evaluation/experiments.ts';
import { DEFAULTS } from '../../../engine/vocabulary.ts';
import type { ExperimentRun, ExperimentSettings } from '../worker/protocol.ts';
import { oodSource, queryMask } from '../../../common/state/ood_split.ts';
import { describeConcept } from '../../../common/state/session.ts';
import { notify, startTask, tasks, type Task } from '../../../common/state/engine_tasks.ts';
import { dataset, labels, oodDataset, queryRows, session } from '../../../common/state/session_store.ts';

/** Settings as the user left them; epsilon and strength follow the session until set here. */
export type SettingsDraft = Omit<ExperimentSettings, 'epsilon' | 'strength'> & {
  epsilon: number | null;
  strength: number | null;
};

export const DEFAULT_SETTINGS: SettingsDraft = {
  trials: DEFAULTS.trials,
  seed: DEFAULTS.seed,
  maxObservations: DEFAULTS.maxObservations,
  maxQueries: DEFAULTS.maxQueries,
  members: DEFAULTS.members,
  k: DEFAULTS.k,
  gpc: true,
  gpcMaxObservations: DEFAULTS.gpcMaxObservations,
  epsilon: null,
  strength: null,
};

export interface ExperimentRecord {
  run: ExperimentRun;
  settings: ExperimentSettings;
  /** What the data looked like (dataset, concept, queries) when it ran, for the summary line. */
  setup: string;
  basis: string;
}

export interface Outcome {
  kind: 'cancelled' | 'error';
  text: string;
}

export const experimentKind = signal<ExperimentKind>('probing');
export const settingsDraft = signal<SettingsDraft>(DEFAULT_SETTINGS);
export const records = signal<Partial<Record<ExperimentKind, ExperimentRecord>>>({});
export const outcomes = signal<Partial<Record<ExperimentKind, Outcome>>>({});
export const activeRun = signal<{ experiment: ExperimentKind; taskId: number } | null>(null);

export const settings = computed<ExperimentSettings>(() => {
  const d = settingsDraft.value,
    s = session.value;
  return { ...d, epsilon: d.epsilon ?? s.epsilon, strength: d.strength ?? s.strength };
});

/** The running experiment's task (the app's task bar shows it too). */
export const runTask = computed<Task | null>(() => {
  const run = activeRun.value;
  return run ? (tasks.value.find((t) => t.id === run.taskId) ?? null) : null;
});

/** What a result of `kind` depends on besides its own settings. */
function basisOf(kind: ExperimentKind): string {
  const d = dataset.value,
    s = session.value;
  const parts: unknown[] = [d?.name, d?.rows, s.concept, s.queries];
  if (kind === 'ood') parts.push(s.ood, oodDataset.value?.name, oodDataset.value?.rows);
  return JSON.stringify(parts);
}

export function isStale(kind: ExperimentKind): boolean {
  const record = records.value[kind];
  return record !== undefined && record.basis !== basisOf(kind);
}

/** Why `kind` cannot run now, or null when it can. */
export function blocker(kind: ExperimentKind): string | null {
  const d = dataset.value,
    y = labels.value;
  if (!d) return 'Load embeddings first.';
  if (!y || !session.value.concept) return 'Choose a concept in the sidebar: the experiments probe it.';
  const positives = y.reduce((n, v) => n + v, 0);
  if (positives === 0 || positives === y.length) return 'The concept needs rows of both classes.';
  if (kind === 'ood' && oodSource(session.value.ood, d.columns, d.rows, !!oodDataset.value).kind === 'none') {
    return 'The OOD experiment needs an OOD set: upload one in the Out-of-distribution view, or say there which rows are in-distribution.';
  }
  return null;
}

/** What a run of `kind` would use now: dataset, concept, queries (and the OOD set), for people to read. */
export function describeSetup(kind: ExperimentKind): string {
  const d = dataset.value,
    s = session.value,
    subset = queryRows.value;
  if (!d || !s.concept) return '';
  const queries =
    subset && s.queries.kind === 'values'
      ? `queries: the ${subset.length.toLocaleString('en-US')} rows with ${s.queries.column} ∈ {${s.queries.values.join(', ')}}`
      : 'queries: a random half of each class per trial';
  let text = `${d.name} · concept ${describeConcept(s.concept)} · ${queries}`;
  if (kind === 'ood') {
    const ood = s.ood,
      file = oodDataset.value;
    if (ood.kind === 'file' && file)
      text += ` · OOD set: the ${file.rows.toLocaleString('en-US')} rows of ${file.name}`;
    if (ood.kind === 'column') text += ` · OOD set: the rows with ${ood.column} ∉ {${ood.inDistribution.join(', ')}}`;
  }
  return text;
}

export async function runEvaluation(kind: ExperimentKind): Promise<void> {
  const d = dataset.value,
    y = labels.value;
  if (activeRun.value || !d || !y || blocker(kind)) return;
  const used = settings.value;
  const basis = basisOf(kind),
    setup = describeSetup(kind);
  // The label counts the trials from the start (the stage then says which trial runs).
  const running = startTask(`Running the ${kind} experiment, ${used.trials} trial${used.trials === 1 ? '' : 's'}`, {
    kind: 'experiment',
    experiment: kind,
    labels: y,
    queryMask: queryMask(queryRows.value, d.rows),
    ood: oodSource(session.value.ood, d.columns, d.rows, !!oodDataset.value),
    settings: used,
  });
  activeRun.value = { experiment: kind, taskId: running.id };
  outcomes.value = { ...outcomes.value, [kind]: undefined };
  let lastStage = '';
  const stopWatching = effect(() => {
    lastStage = runTask.value?.progress?.stage ?? lastStage;
  });
  try {
    const run = await running.result;
    records.value = { ...records.value, [kind]: { run, settings: used, setup, basis } };
  } catch (error) {
    const cancelled = isCancelled(error);
    const text = cancelled
      ? `Cancelled${lastStage ? ` during ${lastStage}` : ''}.${records.value[kind] ? ' The results below are from the previous run.' : ''}`
      : error instanceof Error
        ? error.message
        : String(error);
    outcomes.value = { ...outcomes.value, [kind]: { kind: cancelled ? 'cancelled' : 'error', text } };
    if (!cancelled) notify('error', `The ${kind} experiment failed: ${text}`);
  } finally {
    stopWatching();
    activeRun.value = null;
  }
}
