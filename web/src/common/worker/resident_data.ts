// What the engine worker keeps between requests: the loaded embeddings (resident in the wasm heap, main
// dataset and OOD set, or the main dataset streamed from its file when it is too large for the heap:
// streamed_data.ts), and what labs keep fitted on the main embeddings (the probe lab's probe, kept up
// to date with the session), dropped whenever those change. Only the first worker instance holds any
// (requests of policy 'terminate' never read it), so terminating the other loses nothing.
import { GpprobeError } from '../../engine/errors.ts';
import type { Matrix } from '../../engine/matrix.ts';
import type { ResidentMatrix } from '../../engine/resident_matrix.ts';
import { formatSize } from '../../io/table.ts';
import type { DatasetRole } from '../data/dataset.ts';
import type { StreamedMain } from './streamed_data.ts';

export interface Loaded {
  name: string;
  resident: ResidentMatrix;
  /** SHA-256 of the embeddings (probe files' data id), computed when first asked for; null without Web Crypto. */
  id?: string | null;
}

export const loaded: Partial<Record<DatasetRole, Loaded>> = {};
/** The main embeddings when they are streamed from their file (then loaded.main is absent). */
export const streamed: { main?: StreamedMain } = {};

/** State a lab keeps fitted on the main embeddings (the probe lab's ProbeSession). */
export interface FittedOnMain {
  reset(): void;
}
const fitted: FittedOnMain[] = [];

/** Keeps `state` until the main embeddings change: mainChanged() resets it. */
export function keepFitted<T extends FittedOnMain>(state: T): T {
  fitted.push(state);
  return state;
}

/** The main embeddings were loaded, replaced or cleared: what was fitted on the old ones is dropped. */
export function mainChanged(): void {
  for (const state of fitted) state.reset();
}

/** The main embeddings held in the heap; a streamed dataset is refused with a message naming it and what to do. */
export function mainData(): ResidentMatrix {
  const s = streamed.main;
  if (s) {
    throw new GpprobeError(
      'invalid_argument',
      `${s.name} is read from its file as needed (${formatSize(s.rows.dataBytes)} of embeddings, ` +
        'too large to hold in memory): the probe view and the map work on it, this needs the embeddings in memory; load fewer rows or dimensions for it',
    );
  }
  if (!loaded.main) throw new GpprobeError('invalid_argument', 'no embeddings are loaded');
  return loaded.main.resident;
}

/** The main embeddings' width, held or streamed; undefined when none are loaded. */
export function mainCols(): number | undefined {
  return streamed.main?.rows.cols ?? loaded.main?.resident.cols;
}

/** Rows of the main embeddings in the given order, from the heap or read from the streamed file. */
export async function mainRows(rows: Int32Array): Promise<Matrix> {
  return streamed.main ? streamed.main.rows.gatherRows(rows) : mainData().gatherRows(rows);
}
