// The shipped digits demo as the app loads it, read in Node for reference runs through the engine:
// embeddings and OOD set (float32, as in the app), the metadata columns, and the demo session's
// concept (closed_loop = 1), query subset (split = test) and first draw of observations (by the core,
// as the app draws them).
import { readFileSync } from 'node:fs';
import type { Matrix, ProbeEngine } from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';

const DIR = 'web/public/demo/digits';

function matrix(file: string): Matrix {
  const a = parseNpy(readFileSync(`${DIR}/${file}`), file);
  return { data: a.data, rows: a.shape[0], cols: a.shape[1] };
}

export function digits(engine: ProbeEngine) {
  const [header, ...lines] = readFileSync(`${DIR}/metadata.csv`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const column = (name: string) => lines.map((cells) => cells[header.indexOf(name)]);
  const labels = Uint8Array.from(column('closed_loop'), Number);
  const queryMask = Uint8Array.from(column('split'), (s) => (s === 'test' ? 1 : 0));
  const manifest = JSON.parse(readFileSync('web/public/demo/manifest.json', 'utf8')) as {
    datasets: { session: { draw: { perClass: number; seed: number } } }[];
  };
  const { perClass, seed } = manifest.datasets[0].session.draw;
  return {
    embeddings: matrix('embeddings.npy'),
    ood: matrix('ood_embeddings.npy'),
    labels,
    queryMask,
    observations: Array.from(engine.drawObservations(labels, perClass, seed)),
  };
}

/** Rows `rows` of `m`, in that order (same precision). */
export function gather(m: Matrix, rows: ArrayLike<number>): Matrix {
  const data = new (m.data.constructor as Float32ArrayConstructor)(rows.length * m.cols);
  for (let k = 0; k < rows.length; k++) data.set(m.data.subarray(rows[k] * m.cols, (rows[k] + 1) * m.cols), k * m.cols);
  return { data, rows: rows.length, cols: m.cols };
}
