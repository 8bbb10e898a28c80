// Certified robustness in the Classification tab: the point x* (a training point or a place clicked on a
// map, or typed), gamma and the moving coordinates; both models' certificates at x* (root bounds at once,
// then branch and bound with its intervals arriving live, then the witness), and gamma sweeps (the
// paper's Fig. 2). Each model runs as one task of kind 'classification-certify' or
// 'classification-sweep' (certify_protocol.ts: policy 'terminate'), model A then model B; Cancel ends
// the running one and the rest of the run. New data clear everything; a changed model marks its side's
// results as stale.
import { batch, effect, signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import type { IntervalDetail } from '../../../engine/progress.ts';
import type { RobustnessCertificate, RobustnessSearch } from '../../../engine/certify/classification_certify.ts';
import { CERTIFY_DEFAULTS } from '../../../engine/vocabulary.ts';
import type { ClassifierModel } from '../worker/protocol.ts';
import { modelLabel } from '../worker/protocol.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import { classCount, defaultDims, type ClassificationData } from './classification_data.ts';
import { data, models, SIDES, type Side } from './classification_store.ts';
import { notify, report, startTask } from '../../../common/state/engine_tasks.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';

/** The form the robustness fields record their problems under (field_problems.ts). */
export const ROBUSTNESS_FORM = 'classification-robustness';
/** The field an action does not read (a problem in any other field refuses it): the sweep's list for
 * Certify, gamma for the sweep. The x* fields are named "x* <column>". */
const UNREAD = { certify: 'sweep gammas', sweep: 'gamma' } as const;

/** Why `action` cannot run on these settings, in words (empty: it can): the problems of the fields it
 * reads, and no moving coordinate ticked. Nothing is certified on a value the user did not give. */
export function robustnessProblems(action: 'certify' | 'sweep', s: RobustnessSettings): string[] {
  const problems = problemsIn(ROBUSTNESS_FORM, (field) => field !== UNREAD[action]);
  if (s.dims.length === 0)
    problems.push('no moving coordinate is ticked: tick at least one (with none, the box is x* alone)');
  return problems;
}

/** Refuses `action` with a message when its inputs have problems; true when it may run. */
function inputsUsable(action: 'certify' | 'sweep', s: RobustnessSettings): boolean {
  const problems = robustnessProblems(action, s);
  if (problems.length === 0) return true;
  notify('error', `${action === 'certify' ? 'Not certified' : 'No sweep'}: ${problems.join('; ')}.`);
  return false;
}

export interface RobustnessSettings {
  gamma: number;
  /** The moving coordinates, every one listed (none ticked: nothing to certify, refused). */
  dims: number[];
  tolerance: number;
  maxIterations: number;
  /** Per search; 0: none. */
  timeLimitSeconds: number;
  /** The sweep's gammas. */
  gammas: number[];
  /** Which extremes the sweep refines. */
  search: RobustnessSearch;
}

/** One side's certificate as it arrives: root bounds first, then the live intervals, then the result. */
export interface SideCertificate {
  /** The run it belongs to (a later run's updates never land on an earlier run's entry). */
  run: number;
  model: ClassifierModel;
  point: number[];
  settings: RobustnessSettings;
  root: RobustnessCertificate | null;
  /** The searches' intervals after splits, in order (as the worker posted them). */
  trace: IntervalDetail[];
  result: { certificate: RobustnessCertificate; seconds: number } | null;
  state: 'waiting' | 'running' | 'done' | 'cancelled' | 'failed';
  error?: string;
}

export interface SideSweep {
  run: number;
  model: ClassifierModel;
  point: number[];
  settings: RobustnessSettings;
  result: { certificates: RobustnessCertificate[]; seconds: number } | null;
  state: SideCertificate['state'];
  error?: string;
}

/**
 * Why a certificate on screen no longer answers the fields as they are (null: it does): a field now holds
 * text it refused (the certificate is of the last value it took, not of what is typed), or a setting the
 * certificate read (γ, the moving coordinates, x*) has changed since it was computed.
 */
export function certificateMismatch(
  shown: { settings: Pick<RobustnessSettings, 'gamma' | 'dims'>; point: readonly number[] },
  current: Pick<RobustnessSettings, 'gamma' | 'dims'>,
  currentPoint: readonly number[] | null,
  problems: readonly string[],
): string | null {
  const why: string[] = [];
  if (problems.length > 0) why.push('a field holds a value that was refused');
  if (shown.settings.gamma !== current.gamma) why.push(`γ is now ${current.gamma}`);
  if (shown.settings.dims.join(',') !== current.dims.join(',')) why.push('the moving coordinates have changed');
  if (currentPoint && shown.point.join(',') !== currentPoint.join(',')) why.push('x* has changed');
  return why.length
    ? `This certificate is for γ = ${shown.settings.gamma}, not the fields as they are (${why.join('; ')}): certify again.`
    : null;
}

/** The paper's Fig. 2 gammas (Synthetic2D): 0, 0.1, ..., 1.4. */
export const PAPER_GAMMAS = Array.from({ length: 15 }, (_, k) => k / 10);

export const robustnessSettings = signal<RobustnessSettings>({
  gamma: 0.2,
  dims: [],
  tolerance: CERTIFY_DEFAULTS.robustness.tolerance,
  maxIterations: CERTIFY_DEFAULTS.robustness.maxIterations,
  timeLimitSeconds: 30,
  gammas: PAPER_GAMMAS,
  search: 'both',
});
/** x* (d values) and the training point it is, if it is one. */
export const point = signal<{ x: number[]; index: number | null } | null>(null);
export const certificates = signal<[SideCertificate | null, SideCertificate | null]>([null, null]);
export const sweeps = signal<[SideSweep | null, SideSweep | null]>([null, null]);
/** The run in progress ('certify' or 'sweep'), for the panel's Cancel. */
export const running = signal<'certify' | 'sweep' | null>(null);

export function updateRobustnessSettings(change: Partial<RobustnessSettings>): void {
  robustnessSettings.value = { ...robustnessSettings.value, ...change };
}

/** Whether a side's result belongs to another model than the side has now. */
export function isStale(entry: { model: ClassifierModel } | null, side: Side): boolean {
  return entry !== null && JSON.stringify(entry.model) !== JSON.stringify(models.value[side]);
}

let run = 0,
  started = 0;
let current: RunningRequest<unknown> | null = null;

/** Stops the running certificate or sweep and what would follow it. */
export function cancelRobustness(): void {
  run += 1;
  current?.cancel();
}

function setCertificate(side: Side, of: number, change: Partial<SideCertificate>): void {
  const next: [SideCertificate | null, SideCertificate | null] = [...certificates.value];
  if (next[side]?.run !== of) return;
  next[side] = { ...next[side]!, ...change };
  certificates.value = next;
}

function setSweep(side: Side, of: number, change: Partial<SideSweep>): void {
  const next: [SideSweep | null, SideSweep | null] = [...sweeps.value];
  if (next[side]?.run !== of) return;
  next[side] = { ...next[side]!, ...change };
  sweeps.value = next;
}

/** Stops what runs and starts run number `run` of `kind`. */
function begin(kind: 'certify' | 'sweep'): number {
  cancelRobustness();
  started = run;
  running.value = kind;
  return run;
}

function options(s: RobustnessSettings, cols: number) {
  // The engine's empty list means every coordinate.
  return {
    dims: s.dims.length === cols ? [] : s.dims,
    tolerance: s.tolerance,
    maxIterations: s.maxIterations,
    timeLimitSeconds: s.timeLimitSeconds,
  };
}

/** Runs `one` for model A then model B as run `mine`; a failure or a cancel ends the run. */
async function eachSide(mine: number, one: (side: Side, alive: () => boolean) => Promise<void>): Promise<void> {
  for (const side of SIDES) {
    if (run !== mine) break;
    try {
      await one(side, () => run === mine);
    } catch (error) {
      if (!isCancelled(error)) report(error);
      run += 1;
    }
  }
  if (started === mine) running.value = null;
}

type Change<R> = { state: SideCertificate['state']; result?: R; error?: string };

/** Makes `task` the running one and records its course on its side's entry (`set`): running, then done
 * with its result, or cancelled / failed (rethrown, so the run stops). */
async function follow<R>(task: RunningRequest<R>, set: (change: Change<R>) => void): Promise<void> {
  current = task;
  set({ state: 'running' });
  try {
    set({ result: await task.result, state: 'done' });
  } catch (error) {
    set(
      isCancelled(error)
        ? { state: 'cancelled' }
        : { state: 'failed', error: error instanceof Error ? error.message : String(error) },
    );
    throw error;
  }
}

/** Certifies both models at x*: root bounds at once, then branch and bound, its intervals live. */
export async function certify(): Promise<void> {
  const d = data.value,
    p = point.value;
  if (!d || !p) return;
  const s = robustnessSettings.value;
  if (!inputsUsable('certify', s)) return;
  const mine = begin('certify');
  certificates.value = SIDES.map((k): SideCertificate => ({
    run: mine,
    model: models.value[k],
    point: p.x,
    settings: s,
    root: null,
    trace: [],
    result: null,
    state: 'waiting',
  })) as [SideCertificate, SideCertificate];
  await eachSide(mine, async (side, alive) => {
    const model = models.value[side];
    const task = startTask(
      `Certifying model ${'AB'[side]}, ${modelLabel(model)}`,
      {
        kind: 'classification-certify',
        x: d.x,
        labels: d.labels,
        model,
        point: p.x,
        options: { ...options(s, d.x.cols), gamma: s.gamma },
      },
      ({ detail }) => {
        if (!alive() || !detail) return;
        if (detail.kind === 'root') setCertificate(side, mine, { root: detail.certificate });
        else setCertificate(side, mine, { trace: [...certificates.value[side]!.trace, detail] });
      },
    );
    await follow(task, (change) => setCertificate(side, mine, change));
  });
  for (const side of SIDES)
    if (certificates.value[side]?.state === 'waiting') setCertificate(side, mine, { state: 'cancelled' });
}

/** Sweeps gamma for both models at x* (the paper's Fig. 2). */
export async function sweep(): Promise<void> {
  const d = data.value,
    p = point.value,
    s = robustnessSettings.value;
  if (!d || !p || !inputsUsable('sweep', s)) return;
  const mine = begin('sweep');
  sweeps.value = SIDES.map((k): SideSweep => ({
    run: mine,
    model: models.value[k],
    point: p.x,
    settings: s,
    result: null,
    state: 'waiting',
  })) as [SideSweep, SideSweep];
  await eachSide(mine, async (side) => {
    const model = models.value[side];
    const task = startTask(`Gamma sweep of model ${'AB'[side]}, ${modelLabel(model)}`, {
      kind: 'classification-sweep',
      x: d.x,
      labels: d.labels,
      model,
      point: p.x,
      gammas: s.gammas,
      options: { ...options(s, d.x.cols), search: s.search },
    });
    await follow(task, (change) => setSweep(side, mine, change));
  });
  for (const side of SIDES) if (sweeps.value[side]?.state === 'waiting') setSweep(side, mine, { state: 'cancelled' });
}

/** x* from a click: a training point, or a place of the map's plane (the other columns at their held values). */
export function pickPoint(x: number[], index: number | null): void {
  point.value = { x, index };
  void certify();
}

// New data: nothing of the old applies.
let seen: ClassificationData | null = null;
effect(() => {
  const d = data.value;
  if (d === seen) return;
  seen = d;
  cancelRobustness();
  batch(() => {
    point.value = null;
    certificates.value = [null, null];
    sweeps.value = [null, null];
    running.value = null;
    robustnessSettings.value = {
      ...robustnessSettings.value,
      dims: d ? defaultDims(d) : [],
      // The softmax model's own default tolerance (its searches cost more per box) with more than two classes.
      tolerance: d && classCount(d) > 2 ? CERTIFY_DEFAULTS.multiclass.tolerance : CERTIFY_DEFAULTS.robustness.tolerance,
    };
  });
});
