// The regression lab's part of the registry's worker table (labs/worker.ts finds it by this file's name): a
// handler for each of its request kinds, typed with the lab's engine. Worker bundle only.
import type { LabHandlers } from '../../parts.ts';
import { regressionHandlers } from './handlers.ts';

export const HANDLERS: LabHandlers<'regression'> = regressionHandlers;
