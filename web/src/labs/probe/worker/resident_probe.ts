// The probe the worker keeps up to date with the session's observations (incremental updates between
// runs), fitted on the main embeddings: common/worker/resident_data.ts drops it when they change.
import { keepFitted } from '../../../common/worker/resident_data.ts';
import { ProbeSession } from './probe_session.ts';

export const session = keepFitted(new ProbeSession());
