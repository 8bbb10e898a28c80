// The box the core's optimisers keep every positive hyperparameter in (bounded L-BFGS in log space):
// [1e-5, 1e5] for each kernel parameter (KernelParameter, core kernel.h), the noise variance
// (hyperparameter_fit.h) and the classifier's signal variance and length-scales (gpc_hyperparameter_fit.h),
// scikit-learn's defaults. The bindings do not report them, so they are written here once;
// tests/wasm/fit_bounds.test.ts holds them to what the core returns when a fit runs into them. A learned
// value at a bound is the bound, not an optimum: the evidence still rises beyond it, and the labs say so.
export const FIT_BOUNDS = { lower: 1e-5, upper: 1e5 } as const;

/** Which bound `value` sits on (to 1e-9 relative: the core returns exp(log bound)), or null. */
export function atBound(value: number): 'lower' | 'upper' | null {
  if (Math.abs(value - FIT_BOUNDS.upper) <= 1e-9 * FIT_BOUNDS.upper) return 'upper';
  if (Math.abs(value - FIT_BOUNDS.lower) <= 1e-9 * FIT_BOUNDS.lower) return 'lower';
  return null;
}

/** "1e5", "1e-5". */
const written = (v: number) => v.toExponential(0).replace('+', '');

/** "signal variance stopped at the fit's upper bound 1e5" for each learned (not held) value on a bound. */
export function boundNotes(learned: readonly (readonly [name: string, value: number])[]): string[] {
  return learned.flatMap(([name, value]) => {
    const side = atBound(value);
    return side ? [`${name} stopped at the fit's ${side} bound ${written(FIT_BOUNDS[side])}`] : [];
  });
}
