// What the engine worker keeps between requests: the loaded embeddings (resident in the wasm heap, main
// dataset and OOD set) and the probe kept up to date with the session. Only the first worker instance
// holds any (requests of policy 'terminate' never read it), so terminating the other loses nothing.
import { GpprobeError } from '../engine/errors.ts';
import type { ResidentMatrix } from '../engine/resident_matrix.ts';
import type { DatasetRole } from './probe_protocol.ts';
import { ProbeSession } from './probe_session.ts';

export interface Loaded {
  name: string;
  resident: ResidentMatrix;
  /** SHA-256 of the embeddings (probe files' data id), computed when first asked for; null without Web Crypto. */
  id?: string | null;
}

export const loaded: Partial<Record<DatasetRole, Loaded>> = {};
export const session = new ProbeSession();

export function mainData(): ResidentMatrix {
  if (!loaded.main) throw new GpprobeError('invalid_argument', 'no embeddings are loaded');
  return loaded.main.resident;
}
