// "Which dimensions matter" in the engine worker (explain_protocol.ts): fit the probe from the request,
// explain the query over every embedding dimension, return the explanation. Every number is the core's.
import { explainProbe } from '../../../engine/explain/explain.ts';
import { throttled } from '../../../common/worker/certify_progress.ts';
import type { Handlers } from '../../../common/worker/handler.ts';
import type { ProbeExplainRequests } from './explain_protocol.ts';

/** Column means of the observations (LIME's baseline 'mean'). */
export function observationMean(x: { data: ArrayLike<number>; rows: number; cols: number }): Float64Array {
  const mean = new Float64Array(x.cols);
  for (let i = 0; i < x.rows; i++) for (let j = 0; j < x.cols; j++) mean[j] += x.data[i * x.cols + j] / x.rows;
  return mean;
}

export const probeExplainHandlers: Handlers<ProbeExplainRequests, 'probe'> = {
  'probe-explain': (r, c) => {
    const start = performance.now();
    c.progress({ stage: 'fitting the probe', done: 0, total: 1 });
    const probe = c.engines.probe.fitProbe({
      observations: r.observations,
      labels: r.labels,
      epsilon: r.epsilon,
      strength: r.strength,
    });
    try {
      const explanation = explainProbe(probe, Float64Array.from(r.query), {
        gamma: r.gamma,
        tolerance: r.tolerance,
        limeSamples: r.limeSamples,
        seed: r.seed,
        baseline: r.baseline === 'mean' ? observationMean(r.observations) : null,
        onProgress: throttled(c, 'explaining'),
      });
      return { explanation, seconds: (performance.now() - start) / 1000 };
    } finally {
      probe.dispose();
    }
  },
};
