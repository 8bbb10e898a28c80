// The Out-of-distribution lab in the engine worker (protocol.ts): OOD detection by the probe and the
// baselines fitted on the session's observations, cancellable between methods and LPE members. Every
// number comes from the core; this file picks rows and moves arrays.
import { auroc, rocCurve, runBaseline } from '../../../engine/baselines/baselines.ts';
import { GpprobeError, isCancelled } from '../../../engine/errors.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import type { ResidentMatrix } from '../../../engine/resident_matrix.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import { loaded, mainData } from '../../../common/worker/resident_data.ts';
import {
  OOD_METHODS,
  type OodBaselines,
  type OodBaselinesRequest,
  type OodMethodResult,
  type OodRequests,
} from './protocol.ts';

/** Rows of `a` then rows of `b` in one matrix (float32 when both are). */
function stackRows(a: Matrix, b: Matrix): Matrix {
  const Type = a.data instanceof Float32Array && b.data instanceof Float32Array ? Float32Array : Float64Array;
  const data = new Type(a.data.length + b.data.length);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return { data, rows: a.rows + b.rows, cols: a.cols };
}

const allRows = (m: ResidentMatrix) => Int32Array.from({ length: m.rows }, (_, i) => i);

async function oodBaselines(r: OodBaselinesRequest, c: HandlerContext<'probe'>): Promise<OodBaselines> {
  const engine = c.engines.probe;
  const main = mainData(),
    oodFile = loaded.ood?.resident;
  const start = performance.now();
  let outside: Matrix;
  if (r.ood.kind === 'rows') outside = main.gatherRows(r.ood.rows);
  else if (oodFile) outside = oodFile.gatherRows(allRows(oodFile));
  else throw new GpprobeError('invalid_argument', 'no OOD set is loaded');
  const queries = stackRows(main.gatherRows(r.queries), outside);
  // In-distribution queries are the positives of every AUROC.
  const truth = Uint8Array.from({ length: queries.rows }, (_, i) => (i < r.queries.length ? 1 : 0));
  const observations = main.gatherRows(r.observations);
  const score = (method: (typeof OOD_METHODS)[number]): Float64Array => {
    if (method === 'gpp') {
      const probe = engine.fitProbe({
        observations,
        labels: r.labels,
        epsilon: r.epsilon,
        strength: r.strength,
        expectedQueries: queries.rows,
      });
      try {
        return probe.score(queries).oodScore;
      } finally {
        probe.dispose();
      }
    }
    return runBaseline(engine, {
      method,
      observations,
      labels: r.labels,
      queries,
      k: r.k,
      seed: r.seed,
      members: r.members,
      onProgress: c.progress,
      signal: c.signal,
    }).score;
  };
  const methods: OodMethodResult[] = [];
  for (const [k, method] of OOD_METHODS.entries()) {
    if (c.signal.aborted) throw new GpprobeError('cancelled', 'cancelled');
    c.progress({ stage: `fitting ${method}`, done: k, total: OOD_METHODS.length });
    try {
      const s = score(method);
      methods.push({ method, auroc: auroc(engine, truth, s), roc: rocCurve(engine, truth, s) });
    } catch (error) {
      if (isCancelled(error)) throw error;
      methods.push({ method, error: error instanceof Error ? error.message : String(error) });
    }
    await yieldToEventLoop(); // a cancel between methods is read here
  }
  return { methods, queries: r.queries.length, oodRows: outside.rows, seconds: (performance.now() - start) / 1000 };
}

export const oodHandlers: Handlers<OodRequests, 'probe'> = { 'ood-baselines': oodBaselines };
