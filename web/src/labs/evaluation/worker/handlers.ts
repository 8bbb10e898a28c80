// The evaluation lab in the engine worker (evaluation_protocol.ts): the paper's experiments on the
// resident embeddings (runExperiment, one trial per wasm call — one per thread — cancellable between calls) and OOD
// detection by the probe and the baselines fitted on the session's observations (cancellable between
// methods and LPE members). Every number comes from the core; this file picks rows and moves arrays.
import { beliefEnvelope } from '../../../engine/probe/analysis.ts';
import { GpprobeError, isCancelled } from '../../../engine/errors.ts';
import { auroc, rocCurve, runBaseline } from '../../../engine/baselines/baselines.ts';
import { runExperiment } from '../../../engine/evaluation/experiments.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import type { MatrixInput, ResidentMatrix } from '../../../engine/resident_matrix.ts';
import {
  OOD_METHODS, type EvaluationRequests, type ExperimentRequest, type ExperimentRun, type OodBaselines, type OodBaselinesRequest,
  type OodMethodResult,
} from './protocol.ts';
import type { HandlerContext, Handlers } from '../../../shared/worker/handler.ts';
import { loaded, mainData } from '../../../shared/worker/resident_data.ts';

const NO_OOD_SET = 'the OOD experiment needs an OOD set: upload one in the Out-of-distribution view, or say there which rows are in-distribution';

function pick(values: Uint8Array, rows: number[]): Uint8Array {
  return Uint8Array.from(rows, (i) => values[i]);
}

/** The inputs of the OOD experiment when a metadata column splits the main dataset. */
function splitByColumn(main: ResidentMatrix, r: ExperimentRequest, inDistribution: Uint8Array) {
  if (inDistribution.length !== main.rows) {
    throw new GpprobeError('dimension_mismatch', `the in-distribution mask has ${inDistribution.length} entries, the embeddings have ${main.rows} rows`);
  }
  const inside: number[] = [], outside: number[] = [];
  inDistribution.forEach((m, i) => (m ? inside : outside).push(i));
  if (outside.length === 0) throw new GpprobeError('invalid_argument', 'the OOD setup calls every row in-distribution: no OOD rows are left');
  return {
    embeddings: main.gatherRows(inside), labels: pick(r.labels, inside),
    queryMask: r.queryMask ? pick(r.queryMask, inside) : undefined, ood: main.gatherRows(outside),
  };
}

async function experiment(r: ExperimentRequest, c: HandlerContext): Promise<ExperimentRun> {
  const engine = c.engines.probe;
  const main = mainData(), oodFile = loaded.ood?.resident;
  let inputs: { embeddings: MatrixInput; labels: Uint8Array; queryMask?: Uint8Array; ood?: MatrixInput } = {
    embeddings: main, labels: r.labels, queryMask: r.queryMask ?? undefined,
  };
  if (r.experiment === 'ood') {
    if (r.ood.kind === 'rows') inputs = splitByColumn(main, r, r.ood.inDistribution);
    else if (r.ood.kind === 'file' && oodFile) inputs.ood = oodFile;
    else throw new GpprobeError('invalid_argument', NO_OOD_SET);
  }
  const start = performance.now();
  try {
    const result = await runExperiment(engine, { experiment: r.experiment, ...inputs, ...r.settings }, {
      signal: c.signal, onProgress: c.progress,
    });
    const envelope = r.experiment === 'fuzzy' ? beliefEnvelope(engine, r.settings.epsilon, { points: 160 }) : null;
    return { result, envelope, rows: inputs.embeddings.rows, oodRows: inputs.ood?.rows ?? 0, seconds: (performance.now() - start) / 1000 };
  } catch (error) {
    if (error instanceof GpprobeError && error.code === 'disposed') {
      throw new GpprobeError('invalid_argument', 'the data changed during the run; run the experiment again');
    }
    throw error;
  }
}

/** Rows of `a` then rows of `b` in one matrix (float32 when both are). */
function stackRows(a: Matrix, b: Matrix): Matrix {
  const Type = a.data instanceof Float32Array && b.data instanceof Float32Array ? Float32Array : Float64Array;
  const data = new Type(a.data.length + b.data.length);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return { data, rows: a.rows + b.rows, cols: a.cols };
}

const allRows = (m: ResidentMatrix) => Int32Array.from({ length: m.rows }, (_, i) => i);

async function oodBaselines(r: OodBaselinesRequest, c: HandlerContext): Promise<OodBaselines> {
  const engine = c.engines.probe;
  const main = mainData(), oodFile = loaded.ood?.resident;
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
      const probe = engine.fitProbe({ observations, labels: r.labels, epsilon: r.epsilon, strength: r.strength, expectedQueries: queries.rows });
      try {
        return probe.score(queries).oodScore;
      } finally {
        probe.dispose();
      }
    }
    return runBaseline(engine, {
      method, observations, labels: r.labels, queries, k: r.k, seed: r.seed, members: r.members, onProgress: c.progress, signal: c.signal,
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
    await yieldToEventLoop();  // a cancel between methods is read here
  }
  return { methods, queries: r.queries.length, oodRows: outside.rows, seconds: (performance.now() - start) / 1000 };
}

export const evaluationHandlers: Handlers<EvaluationRequests> = { experiment, 'ood-baselines': oodBaselines };
