// "Export probe": the current probe as a probe file (engine/probe_file.ts) that `gpprobe probe --probe`
// and `engine.loadProbe` fit again, to score any number of new queries with the app's numbers.
import { report, request } from '../../../common/state/engine_tasks.ts';
import { dataset } from '../../../common/state/session_store.ts';
import { currentResults } from './probe_store.ts';

/**
 * The probe file's bytes, or null (reported) when there is no probe to export. It holds the probe whose
 * results are shown once the session's latest change is fitted (currentResults waits for a refit on its
 * way), never the session's newer observations around older results.
 */
export async function probeFile(): Promise<Uint8Array | null> {
  const d = dataset.value;
  const r = d ? await currentResults() : null;
  if (!d || !r || !r.labels) {
    report(new Error('Choose a concept first: a probe needs labelled observations.'));
    return null;
  }
  const rows = Int32Array.from(r.observations);
  try {
    return await request('Exporting the probe', {
      kind: 'export-probe',
      epsilon: r.epsilon,
      strength: r.strength,
      observations: rows,
      labels: Uint8Array.from(rows, (row) => r.labels![row]),
      data: d.name,
    });
  } catch (error) {
    report(error);
    return null;
  }
}
