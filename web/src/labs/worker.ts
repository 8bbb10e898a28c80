// The registry's worker part: each lab's handlers, one per kind of its protocol (labs/protocol.ts),
// each table typed with its lab's engine (labs/index.ts), so a handler that reaches for another engine
// does not compile. The engine worker's HANDLERS table is derived from it. Worker bundle only.
import { certifyHandlers } from './classification/worker/certify_handlers.ts';
import { explainHandlers } from './classification/worker/explain_handlers.ts';
import { classificationHandlers } from './classification/worker/handlers.ts';
import { compareHandlers } from './compare/worker/handlers.ts';
import { evaluationHandlers } from './evaluation/worker/handlers.ts';
import { enginesOf, LABS, mergeLabTables, type EngineOf, type LabId } from './index.ts';
import { oodHandlers } from './ood/worker/handlers.ts';
import { probeCertifyHandlers } from './probe/worker/certify_handlers.ts';
import { probeExplainHandlers } from './probe/worker/explain_handlers.ts';
import { probeHandlers } from './probe/worker/handlers.ts';
import { verdictHandlers } from './probe/worker/verdict_handlers.ts';
import type { LabRequests } from './protocol.ts';
import { regressionHandlers } from './regression/worker/handlers.ts';
import { ENGINE_FACTORIES, type Engines } from '../common/worker/engines.ts';
import type { GpprobeModule } from '../engine/generated/gpprobe.mjs';
import type { Handler, Handlers } from '../common/worker/handler.ts';
import type { RequestKind } from '../common/worker/protocol.ts';

/** Each lab's handlers (the compiler checks every lab present, every kind handled, and the engine used). */
export const LAB_HANDLERS: { readonly [L in LabId]: Handlers<LabRequests[L], EngineOf<L>> } = {
  probe: { ...probeHandlers, ...verdictHandlers, ...probeCertifyHandlers, ...probeExplainHandlers },
  ood: oodHandlers,
  evaluation: evaluationHandlers,
  regression: regressionHandlers,
  classification: { ...classificationHandlers, ...certifyHandlers, ...explainHandlers },
  compare: compareHandlers,
};

/** Every kind's handler. */
export const HANDLERS = mergeLabTables(
  LAB_HANDLERS as unknown as Record<string, Record<string, unknown>>,
) as unknown as { readonly [K in RequestKind]: Handler<K> };

/** The engines the registry's labs need, made on the worker's module (all three today). */
export function makeEngines(module: GpprobeModule): Engines {
  return Object.fromEntries(enginesOf(LABS).map((name) => [name, ENGINE_FACTORIES[name](module)])) as Engines;
}
