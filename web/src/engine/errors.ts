// Errors of the engine: every failure of the core arrives as a GpprobeError whose `code` is the core's
// status code and whose message names the input and the problem.

export type GpprobeErrorCode =
  | 'invalid_argument'
  | 'dimension_mismatch'
  | 'non_finite'
  | 'numerical_failure'
  | 'parse_error'
  | 'io_error'
  | 'out_of_memory'
  | 'cancelled'
  | 'internal_error'
  | 'disposed';

export class GpprobeError extends Error {
  readonly code: GpprobeErrorCode;

  constructor(code: GpprobeErrorCode, message: string) {
    super(message);
    this.name = 'GpprobeError';
    this.code = code;
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set<GpprobeErrorCode>([
  'invalid_argument', 'dimension_mismatch', 'non_finite', 'numerical_failure', 'parse_error',
  'io_error', 'out_of_memory', 'cancelled', 'internal_error', 'disposed',
]);

function isErrorCode(code: string): code is GpprobeErrorCode {
  return KNOWN_CODES.has(code);
}

/** Throws the GpprobeError a binding status describes; returns quietly for "ok". */
export function throwIfFailed(status: { code: string; message: string }): void {
  if (status.code === 'ok') return;
  throw new GpprobeError(isErrorCode(status.code) ? status.code : 'internal_error', status.message);
}
