// The registry's worker part: each lab's handlers, from the labs' own worker/lab_handlers.ts (found by
// name), each typed with its lab's kinds (labs/protocol.ts) and engine (labs/index.ts), so a handler that
// reaches for another engine does not compile. The engine worker's HANDLERS table is derived from it.
// Worker bundle only.
import { enginesOf, LABS, mergeLabTables, partsByLab, type LabId } from './index.ts';
import type { LabHandlers, LabHandlersPart } from './parts.ts';
import { ENGINE_FACTORIES, type Engines } from '../common/worker/engines.ts';
import type { GpprobeModule } from '../engine/generated/gpprobe.mjs';
import type { Handler } from '../common/worker/handler.ts';
import type { RequestKind } from '../common/worker/protocol.ts';

/**
 * Each lab's handlers, typed in the lab's own file (`LabHandlers<'probe'>` in labs/probe/worker/lab_handlers.ts:
 * every kind handled, on the lab's engine); partsByLab files each under its folder's id, and
 * tests/web/lab_registry.test.ts holds each file to its folder's lab.
 */
export const LAB_HANDLERS = partsByLab(
  LABS,
  import.meta.glob<LabHandlersPart<LabId>>('./*/worker/lab_handlers.ts', { eager: true }),
  'worker/lab_handlers.ts',
  (part) => part.HANDLERS,
) as { readonly [L in LabId]: LabHandlers<L> };

/** Every kind's handler. */
export const HANDLERS = mergeLabTables(
  LAB_HANDLERS as unknown as Record<string, Record<string, unknown>>,
) as unknown as { readonly [K in RequestKind]: Handler<K> };

/** The engines the registry's labs need, made on the worker's module (all three today). */
export function makeEngines(module: GpprobeModule): Engines {
  return Object.fromEntries(enginesOf(LABS).map((name) => [name, ENGINE_FACTORIES[name](module)])) as Engines;
}
