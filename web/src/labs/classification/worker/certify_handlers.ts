// Certified bounds in the engine worker (certify_protocol.ts): fit the classifier or the probe from the
// request, post the root bounds, run branch and bound with its intervals posted as it goes, return
// the certificate. Every number comes from the core.
import type { GpClassifier } from '../../../engine/classification/classification.ts';
import type { Progress } from '../../../engine/progress.ts';
import { INTERVAL_MS, type CertifyRequests } from './certify_protocol.ts';
import { modelLabel } from './protocol.ts';
import type { HandlerContext, Handlers } from '../../../shared/worker/handler.ts';
import type { Inputs } from '../../regression/worker/protocol.ts';
import type { ClassifierModel } from './protocol.ts';
import { mainRows } from '../../../shared/worker/resident_data.ts';

function withClassifier<T>(c: HandlerContext, r: { x: Inputs; labels: Float64Array; model: ClassifierModel }, run: (gpc: GpClassifier) => T): T {
  c.progress({ stage: `${modelLabel(r.model)}: fitting`, done: 0, total: 1 });
  const gpc = c.engines.classification.fitClassifier({ inputs: r.x, labels: r.labels, ...r.model });
  try {
    return run(gpc);
  } finally {
    gpc.dispose();
  }
}

/** Forwards progress at most every INTERVAL_MS (and at once when the searched extreme or the stage
 * changes), the stage prefixed by `label`. */
function throttled(c: HandlerContext, label: string): (p: Progress) => void {
  let last = -Infinity, stage = '';
  return (p) => {
    const now = performance.now();
    if (p.stage === stage && now - last < INTERVAL_MS) return;
    stage = p.stage;
    last = now;
    c.progress({ ...p, stage: `${label}: ${p.stage}` });
  };
}

export const certifyHandlers: Handlers<CertifyRequests> = {
  'classification-certify': (r, c) => withClassifier(c, r, (gpc) => {
    const start = performance.now(), label = modelLabel(r.model);
    const root = gpc.certifyRobustness(r.point, { ...r.options, maxIterations: 0 });
    c.progress({ stage: `${label}: root bounds`, done: 0, total: 1, detail: { kind: 'root', certificate: root } });
    const certificate = gpc.certifyRobustness(r.point, { ...r.options, onProgress: throttled(c, label) });
    return { certificate, seconds: (performance.now() - start) / 1000 };
  }),
  'classification-sweep': (r, c) => withClassifier(c, r, (gpc) => {
    const start = performance.now(), label = modelLabel(r.model);
    const certificates = gpc.robustnessSweep(r.point, r.gammas, {
      ...r.options, onProgress: throttled(c, label),
    });
    return { certificates, seconds: (performance.now() - start) / 1000 };
  }),
  'embedding-rows': (r) => mainRows(r.rows),
  'probe-certify': (r, c) => {
    const start = performance.now();
    c.progress({ stage: 'fitting the probe', done: 0, total: 1 });
    const probe = c.engines.probe.fitProbe({ observations: r.observations, labels: r.labels, epsilon: r.epsilon, strength: r.strength });
    try {
      const certificate = probe.certify(r.query, { ...r.options, onProgress: throttled(c, 'certifying') });
      return { certificate, seconds: (performance.now() - start) / 1000 };
    } finally {
      probe.dispose();
    }
  },
};
