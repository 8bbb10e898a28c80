// The engines of the worker's one wasm module, one per kind a lab can name in the registry (labs/index.ts
// `engine`). The worker makes those its labs need; a handler's context holds only its lab's engine.
import { ClassificationEngine } from '../../engine/classification/classification.ts';
import type { GpprobeModule } from '../../engine/generated/gpprobe.mjs';
import { ProbeEngine } from '../../engine/probe/probe_engine.ts';
import { RegressionEngine } from '../../engine/regression/regression.ts';

export const ENGINE_FACTORIES = {
  probe: (module: GpprobeModule) => new ProbeEngine(module),
  regression: (module: GpprobeModule) => new RegressionEngine(module),
  classification: (module: GpprobeModule) => new ClassificationEngine(module),
};

export type EngineName = keyof typeof ENGINE_FACTORIES;
export type Engines = { [E in EngineName]: ReturnType<(typeof ENGINE_FACTORIES)[E]> };
