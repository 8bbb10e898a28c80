// "Certify within γ" for the Probe tab's selected query: the certified range of its judged probability
// (and latent mean, latent variance, episteme) over every query within gamma of it, whether its verdict
// can flip, and with a few moving coordinates branch and bound's witnesses. The rows come from the
// resident embeddings ('embedding-rows'), then the probe on the session's observations is fitted and
// certified on the terminable worker instance ('probe-certify', certify_protocol.ts), so Cancel ends it
// at once and the rest of the tab stays responsive meanwhile.
import { signal } from '@preact/signals';
import { isCancelled } from '../../../engine/errors.ts';
import type { ProbeCertificate, QueryNorm } from '../../../engine/certify/probe_certify.ts';
import { CERTIFY_DEFAULTS } from '../../../engine/vocabulary.ts';
import type { RunningRequest } from '../../../common/worker/protocol.ts';
import { notify, report, request, startTask } from '../../../common/state/engine_tasks.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';

/** The form the certify fields record their problems under (field_problems.ts). */
export const PROBE_CERTIFY_FORM = 'probe-certify';
import { dataset, labels, probeBasis, session } from '../../../common/state/session_store.ts';

export interface ProbeCertifySettings {
  gamma: number;
  norm: QueryNorm;
  /** Moving coordinates; empty: all, and no branch and bound. */
  dims: number[];
  tolerance: number;
  maxIterations: number;
  timeLimitSeconds: number;
}

export interface QueryCertificate {
  row: number;
  /** The session the certificate belongs to (stale when it changes). */
  basis: string;
  settings: ProbeCertifySettings;
  /** a*, as certified. */
  query: Float32Array | Float64Array;
  certificate: ProbeCertificate;
  seconds: number;
}

export const probeCertifySettings = signal<ProbeCertifySettings>({
  gamma: 0.5,
  norm: CERTIFY_DEFAULTS.probe.norm === '2' ? '2' : 'inf',
  dims: [],
  tolerance: CERTIFY_DEFAULTS.probe.tolerance,
  maxIterations: CERTIFY_DEFAULTS.probe.maxIterations,
  timeLimitSeconds: 30,
});
export const queryCertificate = signal<QueryCertificate | null>(null);

/**
 * The loaded data's scale, for γ's default: the median length of a sample of its rows. A fixed γ means
 * nothing across datasets (0.5 moves every coordinate of a unit-length 128-d embedding by about six
 * times its typical size, so every verdict can flip), so γ starts at a tenth of a typical row's length
 * (spread over the coordinates for the L∞ box) until the user sets it.
 */
export interface DataScale {
  /** The dataset it was measured on (DatasetSummary.name with its shape). */
  dataset: string;
  medianNorm: number;
  cols: number;
  sampled: number;
}
export const dataScale = signal<DataScale | null>(null);
/** Whether the user has set γ (then a new dataset or norm leaves it alone). */
export const gammaSetByUser = signal(false);

/** The fraction of a typical row's length that γ's default moves it by. */
export const DEFAULT_GAMMA_FRACTION = 0.1;

/**
 * γ's default for data whose rows have median length `medianNorm` in `cols` dimensions: a tenth of it
 * for the L2 ball; for the L∞ box, per coordinate, a tenth of it over √cols (the box's corner is then a
 * tenth of a row's length away). Two significant digits; 0 when the data are all zero.
 */
export function defaultGamma(medianNorm: number, cols: number, norm: QueryNorm): number {
  const raw = (DEFAULT_GAMMA_FRACTION * medianNorm) / (norm === 'inf' ? Math.sqrt(Math.max(1, cols)) : 1);
  if (!(raw > 0) || !Number.isFinite(raw)) return 0;
  return Number(raw.toPrecision(2));
}

/** The median row length of up to `sample` evenly spaced rows of the loaded embeddings. */
export async function measureDataScale(name: string, rows: number, sample = 256): Promise<DataScale | null> {
  if (rows <= 0) return null;
  const step = Math.max(1, Math.floor(rows / sample));
  const picked = Int32Array.from({ length: Math.min(rows, sample) }, (_, k) => Math.min(rows - 1, k * step));
  const gathered = await request(null, { kind: 'embedding-rows', rows: picked });
  const cols = gathered.cols;
  const norms = Array.from(picked, (_, k) => {
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += gathered.data[k * cols + j] ** 2;
    return Math.sqrt(sum);
  }).sort((a, b) => a - b);
  const m = norms.length >> 1;
  const medianNorm = norms.length % 2 ? norms[m] : (norms[m - 1] + norms[m]) / 2;
  return { dataset: name, medianNorm, cols, sampled: norms.length };
}

/** Applies the data's default γ unless the user has set one. */
export function applyDefaultGamma(): void {
  // peek: called from effects that follow the norm, and it writes the settings it reads.
  const scale = dataScale.peek(),
    settings = probeCertifySettings.peek();
  if (!scale || gammaSetByUser.peek()) return;
  const gamma = defaultGamma(scale.medianNorm, scale.cols, settings.norm);
  if (gamma > 0 && gamma !== settings.gamma) probeCertifySettings.value = { ...settings, gamma };
}

/** γ as the user typed it: kept from now on, for this and the next datasets. */
export function setGammaByUser(gamma: number): void {
  gammaSetByUser.value = true;
  updateProbeCertifySettings({ gamma });
}

/** Back to the data's default γ. */
export function resetGamma(): void {
  gammaSetByUser.value = false;
  applyDefaultGamma();
}
export const certifyingRow = signal<number | null>(null);

export function updateProbeCertifySettings(change: Partial<ProbeCertifySettings>): void {
  probeCertifySettings.value = { ...probeCertifySettings.value, ...change };
}

let current: RunningRequest<unknown> | null = null,
  run = 0;

export function cancelQueryCertificate(): void {
  current?.cancel();
}

/** Certifies `row` with the current settings, on the probe of the current observations. */
export async function certifyRow(row: number): Promise<void> {
  const d = dataset.value,
    y = labels.value;
  if (!d) return;
  // Never a certificate for a value the user did not give (an empty or negative γ is not γ = 0).
  const problems = problemsIn(PROBE_CERTIFY_FORM);
  if (problems.length > 0) {
    notify('error', `Not certified: ${problems.join('; ')}.`);
    return;
  }
  current?.cancel();
  const mine = ++run;
  const s = session.value,
    settings = probeCertifySettings.value,
    basis = probeBasis.value;
  // The probe the tab runs: the session's observations in order, with the concept's labels (none: its prior).
  const rows = y ? s.observations.filter((r) => r < d.rows) : [];
  certifyingRow.value = row;
  try {
    const gathered = await request(null, { kind: 'embedding-rows', rows: Int32Array.from([...rows, row]) });
    const cols = gathered.cols,
      n = rows.length;
    const task = startTask(`Certifying row ${row} within γ = ${settings.gamma}`, {
      kind: 'probe-certify',
      epsilon: s.epsilon,
      strength: s.strength,
      labels: Uint8Array.from(rows, (r) => y![r]),
      observations: { data: gathered.data.slice(0, n * cols), rows: n, cols },
      query: gathered.data.slice(n * cols),
      options: {
        gamma: settings.gamma,
        norm: settings.norm,
        dims: settings.dims,
        tolerance: settings.tolerance,
        maxIterations: settings.maxIterations,
        timeLimitSeconds: settings.timeLimitSeconds,
      },
    });
    current = task;
    const r = await task.result;
    if (mine === run)
      queryCertificate.value = {
        row,
        basis,
        settings,
        query: gathered.data.slice(n * cols),
        certificate: r.certificate,
        seconds: r.seconds,
      };
  } catch (error) {
    if (!isCancelled(error)) report(error);
  } finally {
    if (mine === run) certifyingRow.value = null;
  }
}
