// The probe lab's part of the registry's worker table (labs/worker.ts finds it by this file's name): a
// handler for each of its request kinds, typed with the lab's engine. Worker bundle only.
import type { LabHandlers } from '../../parts.ts';
import { probeHandlers } from './handlers.ts';
import { verdictHandlers } from './verdict_handlers.ts';
import { probeCertifyHandlers } from './certify_handlers.ts';
import { probeExplainHandlers } from './explain_handlers.ts';

export const HANDLERS: LabHandlers<'probe'> = {
  ...probeHandlers,
  ...verdictHandlers,
  ...probeCertifyHandlers,
  ...probeExplainHandlers,
};
