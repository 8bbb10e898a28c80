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

/** The class predicted at most of the m points (the lowest index on ties), from m × C probabilities. */
export function mostPredicted(probability: ArrayLike<number>, m: number, classes: number): number {
  const votes = new Array<number>(classes).fill(0);
  for (let i = 0; i < m; i++) {
    let best = 0;
    for (let k = 1; k < classes; k++) if (probability[i * classes + k] > probability[i * classes + best]) best = k;
    votes[best] += 1;
  }
  return votes.indexOf(Math.max(...votes));
}

export const explainHandlers: Handlers<ExplainRequests, 'classification'> = {
  'classification-explain': (r, c) => {
    const start = performance.now();
    const label = r.softmax ? 'softmax Laplace' : r.model ? modelLabel(r.model) : '';
    c.progress({ stage: `${label}: fitting`, done: 0, total: 1 });
    const o = r.options;
    const options = {
      gamma: o.gamma,
      validRange: o.validRange,
      tolerance: o.tolerance,
      limeSamples: o.limeSamples,
      seed: o.seed,
      nearlyConstantShare: o.nearlyConstantShare,
      baseline: o.baseline === 'mean' ? columnMeans(r.x) : null,
      onProgress: throttled(c, `${label}: explaining`),
    };
    if (r.softmax) {
      const s = r.softmax;
      const gpc = c.engines.classification.fitClassifier({
        inputs: r.x,
        labels: r.labels,
        likelihood: 'softmax',
        classes: s.classes,
        kernel: { signalVariance: s.model.signalVariance, lengthScales: s.model.lengthScales },
      });
      try {
        const m = r.points.length / r.x.cols;
        const classIndex =
          s.classIndex ??
          mostPredicted(gpc.predict({ data: r.points, rows: m, cols: r.x.cols }).probability, m, s.classes);
        const explanation = gpc.explain(r.points, { ...options, classIndex });
        return { explanation, seconds: (performance.now() - start) / 1000, classIndex };
      } finally {
        gpc.dispose();
      }
    }
    if (!r.model) throw new Error('classification-explain: neither a binary model nor a softmax model was given');
    const gpc = c.engines.classification.fitClassifier({ inputs: r.x, labels: r.labels, ...r.model });
    try {
      return {
        explanation: gpc.explain(r.points, options),
        seconds: (performance.now() - start) / 1000,
        classIndex: null,
      };
    } finally {
      gpc.dispose();
    }
  },
};
