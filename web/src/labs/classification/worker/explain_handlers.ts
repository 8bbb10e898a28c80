// The classifier's explanation in the engine worker (explain_protocol.ts): fit the classifier from the
// request, explain the points, return the explanation. Every number comes from the core.
import { throttled } from '../../../common/worker/certify_progress.ts';
import type { Handlers } from '../../../common/worker/handler.ts';
import type { ExplainRequests } from './explain_protocol.ts';
import { modelLabel } from './protocol.ts';

/** Column means of n by d inputs (LIME's baseline 'mean'). */
export function columnMeans(x: { data: ArrayLike<number>; rows: number; cols: number }): Float64Array {
  const mean = new Float64Array(x.cols);
  for (let i = 0; i < x.rows; i++) for (let j = 0; j < x.cols; j++) mean[j] += x.data[i * x.cols + j] / x.rows;
  return mean;
}

export const explainHandlers: Handlers<ExplainRequests, 'classification'> = {
  'classification-explain': (r, c) => {
    const start = performance.now(), label = modelLabel(r.model);
    c.progress({ stage: `${label}: fitting`, done: 0, total: 1 });
    const gpc = c.engines.classification.fitClassifier({ inputs: r.x, labels: r.labels, ...r.model });
    try {
      const o = r.options;
      const explanation = gpc.explain(r.points, {
        gamma: o.gamma, validRange: o.validRange, tolerance: o.tolerance, limeSamples: o.limeSamples, seed: o.seed,
        baseline: o.baseline === 'mean' ? columnMeans(r.x) : null, onProgress: throttled(c, `${label}: explaining`),
      });
      return { explanation, seconds: (performance.now() - start) / 1000 };
    } finally {
      gpc.dispose();
    }
  },
};
