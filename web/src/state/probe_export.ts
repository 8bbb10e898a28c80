// "Export probe": the current probe as a probe file (engine/probe_file.ts) that `gpprobe probe --probe`
// and `engine.loadProbe` fit again, to score any number of new queries with the app's numbers.
import { report, request } from './engine_tasks.ts';
import { dataset, labels, session } from './store.ts';

/** The probe file's bytes, or null (reported) when there is no probe to export. */
export async function probeFile(): Promise<Uint8Array | null> {
  const d = dataset.value, y = labels.value, s = session.value;
  if (!d || !y) {
    report(new Error('Choose a concept first: a probe needs labelled observations.'));
    return null;
  }
  const rows = Int32Array.from(s.observations.filter((r) => r < d.rows));
  try {
    return await request('Exporting the probe', {
      kind: 'export-probe', epsilon: s.epsilon, strength: s.strength, observations: rows,
      labels: Uint8Array.from(rows, (r) => y[r]), data: d.name,
    });
  } catch (error) {
    report(error);
    return null;
  }
}
