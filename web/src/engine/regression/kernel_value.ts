// A kernel between the TS API and the bindings: the API's KernelSpec ({ name, parameters by name }, a
// record in the caller's order) and the binding's KernelValue ({ name, parameters: names[], values:
// Float64Array }). Both carry the doubles as they are: no text, no rounding, either way.
import type { KernelValue } from '../generated/gpprobe.mjs';
import type { KernelSpec } from './regression_types.ts';

/** The binding's KernelValue of a kernel spec (names and doubles in the order given). */
export function kernelValue(kernel: KernelSpec | string): KernelValue {
  const spec = typeof kernel === 'string' ? { name: kernel } : kernel;
  const entries = Object.entries(spec.parameters ?? {});
  return {
    name: spec.name,
    parameters: entries.map(([name]) => name),
    values: Float64Array.from(entries, ([, v]) => v),
  };
}

/** A binding's KernelValue as a spec with every parameter named. */
export function kernelSpec(value: KernelValue): Required<KernelSpec> {
  return {
    name: value.name,
    parameters: Object.fromEntries(value.parameters.map((name, i) => [name, value.values[i]])),
  };
}
