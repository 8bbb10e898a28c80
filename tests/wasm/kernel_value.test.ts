// Kernels cross the JS/wasm boundary and the worker boundary as values (names and doubles), never as
// text: a value with 17 significant digits reaches the core bit for bit, and a learned value comes back
// bit for bit — through the engine API, and along the regression lab's own path (its settings, the
// worker protocol's structured clone, the worker's handler, and back into the settings).
import { beforeAll, describe, expect, it } from 'vitest';
import { ClassificationEngine } from '../../web/src/engine/classification/classification.ts';
import { loadModule } from '../../web/src/engine/load_module.ts';
import { ProbeEngine } from '../../web/src/engine/probe/probe_engine.ts';
import { RegressionEngine, type RegressionVocabulary } from '../../web/src/engine/regression/regression.ts';
import {
  DEFAULT_SETTINGS,
  kernelSpec,
  noiseVariance,
  settingsFromState,
  valueOf,
  type RegressionSettings,
} from '../../web/src/labs/regression/state/kernel_fields.ts';
import type { HandlerContext } from '../../web/src/common/worker/handler.ts';
import type { Request, ResultOf } from '../../web/src/common/worker/protocol.ts';
import { regressionHandlers } from '../../web/src/labs/regression/worker/handlers.ts';

const TYPED = 0.12345678901234567; // 17 significant digits
const bits = (v: number) => new BigUint64Array(Float64Array.of(v).buffer)[0];

let engine: RegressionEngine;
let vocabulary: RegressionVocabulary;
let context: HandlerContext;
beforeAll(async () => {
  const module = await loadModule();
  engine = new RegressionEngine(module);
  vocabulary = engine.vocabulary();
  context = {
    engines: { probe: new ProbeEngine(module), regression: engine, classification: new ClassificationEngine(module) },
    signal: new AbortController().signal,
    progress: () => undefined,
  };
});

/** A request and its answer as the worker boundary moves them: structured clones. */
async function throughWorker<K extends 'regression-fit' | 'regression-optimize'>(
  request: Request<K>,
): Promise<ResultOf<K>> {
  const handler = regressionHandlers[request.kind] as (r: Request<K>, c: HandlerContext) => Promise<ResultOf<K>>;
  return structuredClone(await handler(structuredClone(request), context));
}

describe('a kernel value', () => {
  it('reaches the core bit for bit and comes back bit for bit', () => {
    const data = engine.example('lecture', 1);
    const gp = engine.fit({
      x: data.x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': TYPED } },
      noiseVariance: 0.1,
    });
    const reported = gp.state.kernel.parameters['rbf.length_scale'];
    expect(bits(reported)).toBe(bits(TYPED));
    expect(gp.state.description).toBe('constant(1) * rbf(0.123457)'); // the text is for reading only
    gp.dispose();
    // A learned value passed back gives the same fit: the same doubles, the same likelihood.
    const learned = engine.optimize({
      x: data.x,
      y: data.y,
      kernel: data.kernel,
      noiseVariance: 0.1,
      fixed: data.held,
      restarts: 1,
    });
    const again = engine.fit({
      x: data.x,
      y: data.y,
      kernel: learned.state.kernel,
      noiseVariance: learned.state.noiseVariance,
    });
    for (const [name, value] of Object.entries(learned.state.kernel.parameters)) {
      expect(bits(again.state.kernel.parameters[name]), name).toBe(bits(value));
    }
    expect(again.state.logMarginalLikelihood).toBe(learned.state.logMarginalLikelihood);
    learned.dispose();
    again.dispose();
  });

  it("takes the lab's path: field -> worker -> core -> worker -> field, bit for bit", async () => {
    const data = engine.example('lecture', 1);
    const x = { data: Float64Array.from(data.x.data), rows: data.x.rows, cols: 1 };
    let settings: RegressionSettings = {
      ...DEFAULT_SETTINGS,
      kernel: 'rbf',
      values: { 'rbf.length_scale': TYPED },
      hold: ['constant.value', 'noise_variance'],
    };
    const common = { x, y: data.y, grid: null, samples: 0, seed: 0, extra: null };
    const fit = await throughWorker({
      kind: 'regression-fit',
      ...common,
      kernel: kernelSpec(vocabulary, settings),
      noiseVariance: noiseVariance(vocabulary, settings),
    });
    expect(bits(fit.state.kernel.parameters['rbf.length_scale'])).toBe(bits(TYPED));
    // Learned in the worker, back in the fields: the same doubles the core reports; held ones untouched.
    const optimized = await throughWorker({
      kind: 'regression-optimize',
      ...common,
      kernel: kernelSpec(vocabulary, settings),
      noiseVariance: noiseVariance(vocabulary, settings),
      restarts: 0,
      fixed: settings.hold,
    });
    settings = settingsFromState(vocabulary, settings, optimized.state);
    const direct = engine.optimize({
      x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': TYPED } },
      noiseVariance: 0.1,
      fixed: ['constant.value', 'noise_variance'],
    });
    expect(bits(valueOf(vocabulary, settings, 'rbf.length_scale'))).toBe(
      bits(direct.state.kernel.parameters['rbf.length_scale']),
    );
    expect(valueOf(vocabulary, settings, 'rbf.length_scale')).not.toBe(TYPED);
    expect(bits(valueOf(vocabulary, settings, 'noise_variance'))).toBe(bits(0.1));
    expect(bits(valueOf(vocabulary, settings, 'constant.value'))).toBe(bits(1));
    direct.dispose();
  });
});
