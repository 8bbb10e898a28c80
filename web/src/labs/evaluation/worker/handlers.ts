// The evaluation lab in the engine worker (protocol.ts): the paper's experiments on the
// resident embeddings (runExperiment, one trial per wasm call — one per thread — cancellable between calls). Every number comes from the core; this file picks rows and moves arrays.
import { beliefEnvelope } from '../../../engine/probe/analysis.ts';
import { GpprobeError, isCancelled } from '../../../engine/errors.ts';
import { auroc, rocCurve, runBaseline } from '../../../engine/baselines/baselines.ts';
import { runExperiment } from '../../../engine/evaluation/experiments.ts';
import type { Matrix } from '../../../engine/matrix.ts';
import { yieldToEventLoop } from '../../../engine/progress.ts';
import type { MatrixInput, ResidentMatrix } from '../../../engine/resident_matrix.ts';
import type { EvaluationRequests, ExperimentRequest, ExperimentRun } from './protocol.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import { loaded, mainData } from '../../../common/worker/resident_data.ts';

const NO_OOD_SET =
  'the OOD experiment needs an OOD set: upload one in the Out-of-distribution view, or say there which rows are in-distribution';

function pick(values: Uint8Array, rows: number[]): Uint8Array {
  return Uint8Array.from(rows, (i) => values[i]);
}

/** The inputs of the OOD experiment when a metadata column splits the main dataset. */
function splitByColumn(main: ResidentMatrix, r: ExperimentRequest, inDistribution: Uint8Array) {
  if (inDistribution.length !== main.rows) {
    throw new GpprobeError(
      'dimension_mismatch',
      `the in-distribution mask has ${inDistribution.length} entries, the embeddings have ${main.rows} rows`,
    );
  }
  const inside: number[] = [],
    outside: number[] = [];
  inDistribution.forEach((m, i) => (m ? inside : outside).push(i));
  if (outside.length === 0)
    throw new GpprobeError('invalid_argument', 'the OOD setup calls every row in-distribution: no OOD rows are left');
  return {
    embeddings: main.gatherRows(inside),
    labels: pick(r.labels, inside),
    queryMask: r.queryMask ? pick(r.queryMask, inside) : undefined,
    ood: main.gatherRows(outside),
  };
}

async function experiment(r: ExperimentRequest, c: HandlerContext<'probe'>): Promise<ExperimentRun> {
  const engine = c.engines.probe;
  const main = mainData(),
    oodFile = loaded.ood?.resident;
  let inputs: { embeddings: MatrixInput; labels: Uint8Array; queryMask?: Uint8Array; ood?: MatrixInput } = {
    embeddings: main,
    labels: r.labels,
    queryMask: r.queryMask ?? undefined,
  };
  if (r.experiment === 'ood') {
    if (r.ood.kind === 'rows') inputs = splitByColumn(main, r, r.ood.inDistribution);
    else if (r.ood.kind === 'file' && oodFile) inputs.ood = oodFile;
    else throw new GpprobeError('invalid_argument', NO_OOD_SET);
  }
  const start = performance.now();
  try {
    const result = await runExperiment(
      engine,
      { experiment: r.experiment, ...inputs, ...r.settings },
      {
        signal: c.signal,
        onProgress: c.progress,
      },
    );
    const envelope = r.experiment === 'fuzzy' ? beliefEnvelope(engine, r.settings.epsilon, { points: 160 }) : null;
    return {
      result,
      envelope,
      rows: inputs.embeddings.rows,
      oodRows: inputs.ood?.rows ?? 0,
      seconds: (performance.now() - start) / 1000,
    };
  } catch (error) {
    if (error instanceof GpprobeError && error.code === 'disposed') {
      throw new GpprobeError('invalid_argument', 'the data changed during the run; run the experiment again');
    }
    throw error;
  }
}

export const evaluationHandlers: Handlers<EvaluationRequests, 'probe'> = { experiment };
