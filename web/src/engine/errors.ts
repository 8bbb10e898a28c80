// Errors of the engine: every failure of the core arrives as a GpprobeError whose `code` is the core's
// status code (core/include/gpprobe/common/status.h) and whose message names the input and the problem.
// ERROR_CODES is the one TS list of those codes (tests/wasm/bindings.test.ts holds it to the module's
// vocabulary), plus "disposed", the TS engine's own code for a handle used after dispose().

export const ERROR_CODES = [
  'invalid_argument',
  'dimension_mismatch',
  'non_finite',
  'numerical_failure',
  'parse_error',
  'io_error',
  'out_of_memory',
  'cancelled',
  'internal_error',
  'disposed',
] as const;

export type GpprobeErrorCode = (typeof ERROR_CODES)[number];

export class GpprobeError extends Error {
  readonly code: GpprobeErrorCode;

  constructor(code: GpprobeErrorCode, message: string) {
    super(message);
    this.name = 'GpprobeError';
    this.code = code;
  }
}

function isErrorCode(code: string): code is GpprobeErrorCode {
  return (ERROR_CODES as readonly string[]).includes(code);
}

/** The GpprobeError for a code that crossed a boundary as text (a binding status, a worker message). */
export function errorOf(code: string, message: string): GpprobeError {
  return new GpprobeError(isErrorCode(code) ? code : 'internal_error', message);
}

/** Returns a binding's result when its code is "ok"; otherwise throws the GpprobeError it describes. */
export function throwIfFailed<T extends { code: string; message: string }>(result: T): T {
  if (result.code !== 'ok') throw errorOf(result.code, result.message);
  return result;
}

/** Whether `error` is a cancellation (the user's, or a superseded request's): not worth an alert. */
export function isCancelled(error: unknown): boolean {
  return error instanceof GpprobeError && error.code === 'cancelled';
}
