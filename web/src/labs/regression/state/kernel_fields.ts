// The regression lab's settings and how they meet the core's kernels. The fields of a kernel are its
// parameters under the names the core gives them (RegressionVocabulary.kernels: "constant.value",
// "periodic.period", ...), then the noise variance under the vocabulary's noiseParameter; a value typed
// into a field goes to the core under that name, and a learned state comes back into the fields by the
// same names. TypeScript keeps no list of kernel or parameter names.
import type { KernelSpec, RegressionState, RegressionVocabulary } from '../../../engine/regression/regression.ts';
import { DEFAULTS } from '../../../engine/vocabulary.ts';

export interface RegressionSettings {
  /** A named kernel of the vocabulary ("" until one is chosen). */
  kernel: string;
  /** Values by parameter name, of every kernel used so far (switching back finds them again). */
  values: Record<string, number>;
  /** Extra L-BFGS runs from seeded random starts. */
  restarts: number;
  seed: number;
  /** Parameter names held at their values while fitting (the noise's name holds the noise). */
  hold: string[];
}

export const DEFAULT_SETTINGS: RegressionSettings = { kernel: '', values: {}, restarts: 2, seed: 0, hold: [] };

function namedKernel(vocabulary: RegressionVocabulary, name: string) {
  return vocabulary.kernels.find((k) => k.name === name) ?? null;
}

/** The parameter names of `kernel`, then the noise variance's: the fields the lab shows, in order. */
export function fieldsOf(vocabulary: RegressionVocabulary, kernel: string): string[] {
  return [...Object.keys(namedKernel(vocabulary, kernel)?.kernel.parameters ?? {}), vocabulary.noiseParameter];
}

/** A field's value: as set, else the kernel's starting value (the noise: the core's default). */
export function valueOf(vocabulary: RegressionVocabulary, s: RegressionSettings, name: string): number {
  return (
    s.values[name] ??
    namedKernel(vocabulary, s.kernel)?.kernel.parameters[name] ??
    (name === vocabulary.noiseParameter ? DEFAULTS.noiseVariance : NaN)
  );
}

/** The kernel the settings describe, every parameter by name. */
export function kernelSpec(vocabulary: RegressionVocabulary, s: RegressionSettings): Required<KernelSpec> {
  const names = fieldsOf(vocabulary, s.kernel).filter((name) => name !== vocabulary.noiseParameter);
  return { name: s.kernel, parameters: Object.fromEntries(names.map((name) => [name, valueOf(vocabulary, s, name)])) };
}

export function noiseVariance(vocabulary: RegressionVocabulary, s: RegressionSettings): number {
  return valueOf(vocabulary, s, vocabulary.noiseParameter);
}

/** The held parameter names that the current kernel (or the noise) has. */
export function heldParameters(vocabulary: RegressionVocabulary, s: RegressionSettings): string[] {
  const names = new Set(fieldsOf(vocabulary, s.kernel));
  return s.hold.filter((p) => names.has(p));
}

/** The settings with the values a fit reports (learned or not) in their fields, bit for bit. */
export function settingsFromState(
  vocabulary: RegressionVocabulary,
  s: RegressionSettings,
  state: RegressionState,
): RegressionSettings {
  return {
    ...s,
    values: { ...s.values, ...state.kernel.parameters, [vocabulary.noiseParameter]: state.noiseVariance },
  };
}

/** The values that decide a fit, as a key: equal keys mean the same fit. */
export function fitKey(vocabulary: RegressionVocabulary, s: RegressionSettings): string {
  return JSON.stringify([
    s.kernel,
    ...fieldsOf(vocabulary, s.kernel).map((name) => [name, valueOf(vocabulary, s, name)]),
  ]);
}
