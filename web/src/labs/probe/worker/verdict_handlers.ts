// The verdict in the engine worker (verdict_protocol.ts): fits a probe on the request's observations of
// the resident embeddings, asks the core for its leave-one-out check, then scores every row's knowledge
// gain in chunks (progress, cancel between chunks); streamed embeddings are read from their file chunk
// by chunk. Every number comes from the core.
import { knowledgeGainStreamed } from '../../../engine/probe/streamed_scores.ts';
import type { Handlers } from '../../../common/worker/handler.ts';
import { mainData, streamed } from '../../../common/worker/resident_data.ts';
import { fitStreamedProbe } from '../../../common/worker/streamed_data.ts';
import type { VerdictRequests } from './verdict_protocol.ts';

export const verdictHandlers: Handlers<VerdictRequests, 'probe'> = {
  verdict: async (r, c) => {
    const start = performance.now();
    const big = streamed.main;
    if (big) {
      // Streamed embeddings (streamed_data.ts): the observations read from the file, the gains a pass over it.
      const probe = await fitStreamedProbe(c.engines.probe, big, r);
      try {
        const leaveOneOut = probe.leaveOneOut();
        const knowledgeGain = await knowledgeGainStreamed(probe, big.rows, {
          signal: c.signal,
          onProgress: ({ done }) =>
            c.progress({ stage: 'what to label next (reading the file)', done, total: big.rows.rows }),
        });
        return {
          leaveOneOut,
          knowledgeGain,
          seconds: (performance.now() - start) / 1000,
        };
      } finally {
        probe.dispose();
      }
    }
    const main = mainData();
    const probe = c.engines.probe.fitProbe({
      observations: main.gatherRows(r.observations),
      labels: r.labels,
      epsilon: r.epsilon,
      strength: r.strength,
      expectedQueries: main.rows,
    });
    try {
      c.progress({ stage: 'leave-one-out', done: 0, total: main.rows });
      const leaveOneOut = probe.leaveOneOut();
      const knowledgeGain = await probe.knowledgeGainAsync(main, {
        signal: c.signal,
        chunkRows: 4096,
        onProgress: ({ done }) => c.progress({ stage: 'what to label next', done, total: main.rows }),
      });
      return {
        leaveOneOut,
        knowledgeGain,
        seconds: (performance.now() - start) / 1000,
      };
    } finally {
      probe.dispose();
    }
  },
};
