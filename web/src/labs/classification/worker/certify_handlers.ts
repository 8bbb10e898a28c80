// The classifier's certified bounds in the engine worker (certify_protocol.ts): fit the classifier from
// the request, post the root bounds, run branch and bound with its intervals posted as it goes, return
// the certificate. Every number comes from the core.
import type { GpClassifier } from '../../../engine/classification/classification.ts';
import type { CertifyRequests } from './certify_protocol.ts';
import { throttled } from '../../../common/worker/certify_progress.ts';
import { modelLabel } from './protocol.ts';
import { CERTIFY_DEFAULTS } from '../../../engine/vocabulary.ts';
import type { HandlerContext, Handlers } from '../../../common/worker/handler.ts';
import type { Inputs } from '../../../common/data/table.ts';
import type { ClassifierModel } from './protocol.ts';

function withClassifier<T>(
  c: HandlerContext<'classification'>,
  r: { x: Inputs; labels: Float64Array; model: ClassifierModel },
  run: (gpc: GpClassifier) => T,
): T {
  c.progress({ stage: `${modelLabel(r.model)}: fitting`, done: 0, total: 1 });
  const gpc = c.engines.classification.fitClassifier({ inputs: r.x, labels: r.labels, ...r.model });
  try {
    return run(gpc);
  } finally {
    gpc.dispose();
  }
}

export const certifyHandlers: Handlers<CertifyRequests, 'classification'> = {
  'classification-certify': (r, c) =>
    withClassifier(c, r, (gpc) => {
      const start = performance.now(),
        label = modelLabel(r.model);
      const root = gpc.certifyRobustness(r.point, { ...r.options, maxIterations: 0 });
      c.progress({ stage: `${label}: root bounds`, done: 0, total: 1, detail: { kind: 'root', certificate: root } });
      // The core counts the boxes split for π_min and π_max together, against twice the limit: say so, or
      // "… / 20,000" reads as a limit of 20,000 when it is 10,000 per extreme.
      const counted = `${label}, boxes split for π_min and π_max together (at most ${(r.options.maxIterations ?? CERTIFY_DEFAULTS.robustness.maxIterations).toLocaleString('en-US')} each)`;
      const certificate = gpc.certifyRobustness(r.point, { ...r.options, onProgress: throttled(c, counted) });
      return { certificate, seconds: (performance.now() - start) / 1000 };
    }),
  'classification-sweep': (r, c) =>
    withClassifier(c, r, (gpc) => {
      const start = performance.now(),
        label = modelLabel(r.model);
      const certificates = gpc.robustnessSweep(r.point, r.gammas, {
        ...r.options,
        onProgress: throttled(c, label),
      });
      return { certificates, seconds: (performance.now() - start) / 1000 };
    }),
};
