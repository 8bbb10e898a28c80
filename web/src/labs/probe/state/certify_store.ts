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
