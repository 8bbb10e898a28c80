// The verdict in the engine worker (verdict_protocol.ts): fits a probe on the request's observations of
// the resident embeddings, asks the core for its leave-one-out check, then scores every row's knowledge
// gain in chunks (progress, cancel between chunks). Every number comes from the core.
import type { Handlers } from './handler.ts';
import { mainData } from './resident_data.ts';
import type { VerdictRequests } from './verdict_protocol.ts';

export const verdictHandlers: Handlers<VerdictRequests> = {
  verdict: async (r, c) => {
    const start = performance.now();
    const main = mainData();
    const probe = c.engines.probe.fitProbe({
      observations: main.gatherRows(r.observations), labels: r.labels, epsilon: r.epsilon, strength: r.strength,
      expectedQueries: main.rows,
    });
    try {
      c.progress({ stage: 'leave-one-out', done: 0, total: main.rows });
      const leaveOneOut = probe.leaveOneOut();
      const knowledgeGain = await probe.knowledgeGainAsync(main, {
        signal: c.signal, chunkRows: 4096, onProgress: ({ done }) => c.progress({ stage: 'what to label next', done, total: main.rows }),
      });
      return { leaveOneOut, knowledgeGain, seconds: (performance.now() - start) / 1000 };
    } finally {
      probe.dispose();
    }
  },
};
