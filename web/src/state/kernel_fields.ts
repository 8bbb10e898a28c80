// The kernels the regression lab offers, the fields each one shows, and how the core's parameter
// names (RegressionState.names: "constant.value", "rbf.length_scale", ...) map onto those fields, so
// learned values land in the fields a user edits. One name per quantity across core, API and UI.
import type { KernelChoice, KernelName, RegressionState } from '../engine/regression.ts';

export type FieldKey = 'variance' | 'lengthScale' | 'period' | 'decay' | 'offset' | 'noiseVariance';

export interface KernelField {
  key: FieldKey;
  label: string;
  /** The core's parameter name, as in RegressionState.names and OptimizeOptions.fixed. */
  parameter: string;
}

const variance: KernelField = { key: 'variance', label: 'variance', parameter: 'constant.value' };
const lengthScale = (kernel: string): KernelField => ({ key: 'lengthScale', label: 'length-scale', parameter: `${kernel}.length_scale` });
const periodic = [lengthScale('periodic'), { key: 'period', label: 'period', parameter: 'periodic.periodicity' } satisfies KernelField];
export const NOISE_FIELD: KernelField = { key: 'noiseVariance', label: 'noise variance', parameter: 'noise_variance' };

export const KERNELS: readonly { name: KernelName; label: string; fields: KernelField[] }[] = [
  { name: 'rbf', label: 'RBF (squared exponential)', fields: [variance, lengthScale('rbf')] },
  { name: 'matern12', label: 'Matérn 1/2', fields: [variance, lengthScale('matern12')] },
  { name: 'matern32', label: 'Matérn 3/2', fields: [variance, lengthScale('matern32')] },
  { name: 'matern52', label: 'Matérn 5/2', fields: [variance, lengthScale('matern52')] },
  { name: 'periodic', label: 'Periodic', fields: [variance, ...periodic] },
  { name: 'locally-periodic', label: 'Locally periodic (periodic × RBF)', fields: [variance, ...periodic, { key: 'decay', label: 'decay (RBF length-scale)', parameter: 'rbf.length_scale' }] },
  { name: 'linear', label: 'Linear', fields: [variance, { key: 'offset', label: 'offset', parameter: 'linear.offset' }] },
  { name: 'cosine', label: 'Cosine (the probe\'s kernel)', fields: [variance] },
];

export interface RegressionSettings {
  kernel: KernelName;
  variance: number;
  lengthScale: number;
  period: number;
  decay: number;
  offset: number;
  noiseVariance: number;
  /** Extra L-BFGS runs from seeded random starts. */
  restarts: number;
  seed: number;
  /** Parameter names held at their values while fitting (e.g. "constant.value", "noise_variance"). */
  hold: string[];
}

export const DEFAULT_SETTINGS: RegressionSettings = {
  kernel: 'rbf', variance: 1, lengthScale: 1, period: 1, decay: 10, offset: 1, noiseVariance: 0.1, restarts: 2, seed: 0, hold: [],
};

/** The fields of `kernel`, then the noise variance. */
export function fieldsOf(kernel: KernelName): KernelField[] {
  return [...(KERNELS.find((k) => k.name === kernel)?.fields ?? []), NOISE_FIELD];
}

export function kernelChoice(s: RegressionSettings): KernelChoice {
  return { name: s.kernel, variance: s.variance, lengthScale: s.lengthScale, period: s.period, decay: s.decay, offset: s.offset };
}

/** The held parameter names that the current kernel has (for OptimizeOptions.fixed). */
export function heldParameters(s: RegressionSettings): string[] {
  const names = new Set(fieldsOf(s.kernel).map((f) => f.parameter));
  return s.hold.filter((p) => names.has(p));
}

/** The settings with the values a fit reports (learned or not) in their fields. */
export function settingsFromState(s: RegressionSettings, state: RegressionState): RegressionSettings {
  const next = { ...s, noiseVariance: state.noiseVariance };
  for (const field of fieldsOf(s.kernel)) {
    const i = state.names.indexOf(field.parameter);
    if (i >= 0) next[field.key] = state.values[i];
  }
  return next;
}

/** The values that decide a fit, as a key: equal keys mean the same fit. */
export function fitKey(s: RegressionSettings): string {
  return JSON.stringify([s.kernel, ...fieldsOf(s.kernel).map((f) => [f.key, s[f.key]])]);
}
