// Certified bounds of the probe's outputs around one query, for JavaScript (the core's
// probe_certificate.h; docs/design/certify.md): over every query of the
// L∞ box a* ± gamma (norm 'inf') or the L2 ball |a − a*| ≤ gamma (norm '2') on the moving coordinates
// `dims` (all by default; the others stay at a*), sound bounds of the judged probability, latent mean,
// latent variance and episteme, and with `search` branch and bound for the lowest and highest judged
// probability with witnesses. = `gpprobe probe --certify-gamma G [--norm] [--certify-dims]`, per query.
//
//   const c = probe.certify(queryRow, { gamma: 2, norm: '2', dims: [3, 17, 40] });
//   c.judgedProbabilityBounds, c.lowestFound, c.highestFound, c.verdictCanFlip
import type { GpprobeModule, ProbeCertificateValue, ProbeHandle } from '../generated/gpprobe.mjs';
import { GpprobeError, throwIfFailed } from '../errors.ts';
import { dtypeOf, HeapScope } from '../heap.ts';
import { coreProgress, type ProgressListener } from '../progress.ts';
import type { SearchStatus, VerdictFlip } from './classification_certify.ts';
import { CERTIFY_DEFAULTS } from '../vocabulary.ts';

export type QueryNorm = 'inf' | '2';

export interface CertifyOptions {
  /** Radius of the set, ≥ 0. */
  gamma: number;
  /** Default CERTIFY_DEFAULTS.probe.norm ('inf'). */
  norm?: QueryNorm;
  /** Moving coordinates (distinct, 0-based); default all. */
  dims?: ArrayLike<number>;
  /** Branch and bound for the judged probability's min and max; default: when `dims` are given (the
   * CLI's rule: --certify-dims turns it on). Its cost grows exponentially with the moving coordinates. */
  search?: boolean;
  tolerance?: number;
  maxIterations?: number;
  timeLimitSeconds?: number;
  /** Stage "branch and bound" (done = boxes split); returning false cancels (status 'cancelled'). */
  onProgress?: ProgressListener;
  signal?: AbortSignal;
}

/** Sound ranges over the whole set (`judgedProbabilityBounds`, `latentMean`, `latentVariance`,
 * `episteme`), the judged probability at a* itself, the values found at queries of the set with their
 * witnesses (bounds.lower ≤ min ≤ lowestFound, highestFound ≤ max ≤ bounds.upper), the boxes split, the
 * search's status ('bounds_only' without branch and bound), and whether the verdict (judged probability
 * ≥ ½ at a*) can flip: 'yes' a query of the set on the other side was found, 'no' the certified range
 * stays on a*'s side. */
export type ProbeCertificate = Omit<ProbeCertificateValue, 'code' | 'message' | 'status' | 'verdictCanFlip'> & {
  status: SearchStatus | 'bounds_only';
  verdictCanFlip: VerdictFlip;
};

/** @internal Probe.certify. */
export function certifyQuery(
  module: GpprobeModule,
  handle: ProbeHandle,
  query: Float32Array | Float64Array,
  options: CertifyOptions,
): ProbeCertificate {
  if (!(query instanceof Float32Array) && !(query instanceof Float64Array)) {
    throw new GpprobeError('invalid_argument', 'the query must be a Float32Array or Float64Array');
  }
  const d = CERTIFY_DEFAULTS.probe;
  const dims = Float64Array.from(options.dims ?? []);
  const heap = new HeapScope(module);
  try {
    const pointer = heap.copyIn(query, 'the query');
    const {
      code: _code,
      message: _message,
      ...c
    } = throwIfFailed(
      handle.certify(
        pointer,
        query.length,
        dtypeOf(query),
        {
          gamma: options.gamma,
          norm: options.norm ?? d.norm,
          dims,
          search: options.search ?? dims.length > 0,
          tolerance: options.tolerance ?? d.tolerance,
          maxIterations: options.maxIterations ?? d.maxIterations,
          timeLimitSeconds: options.timeLimitSeconds ?? d.timeLimitSeconds,
        },
        coreProgress('branch and bound', options.onProgress, options.signal),
      ),
    );
    return { ...c, status: c.status as ProbeCertificate['status'], verdictCanFlip: c.verdictCanFlip as VerdictFlip };
  } finally {
    heap.free();
  }
}
