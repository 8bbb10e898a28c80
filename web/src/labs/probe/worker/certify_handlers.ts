// The probe's certified bounds in the engine worker (certify_protocol.ts): fit the probe from the
// request, run branch and bound with its intervals posted as it goes, return the certificate. Every
// number comes from the core.
import { throttled } from '../../../common/worker/certify_progress.ts';
import type { Handlers } from '../../../common/worker/handler.ts';
import { mainRows } from '../../../common/worker/resident_data.ts';
import type { ProbeCertifyRequests } from './certify_protocol.ts';

export const probeCertifyHandlers: Handlers<ProbeCertifyRequests, 'probe'> = {
  'embedding-rows': (r) => mainRows(r.rows),
  'probe-certify': (r, c) => {
    const start = performance.now();
    c.progress({ stage: 'fitting the probe', done: 0, total: 1 });
    const probe = c.engines.probe.fitProbe({
      observations: r.observations,
      labels: r.labels,
      epsilon: r.epsilon,
      strength: r.strength,
    });
    try {
      const certificate = probe.certify(r.query, { ...r.options, onProgress: throttled(c, 'certifying') });
      return { certificate, seconds: (performance.now() - start) / 1000 };
    } finally {
      probe.dispose();
    }
  },
};
