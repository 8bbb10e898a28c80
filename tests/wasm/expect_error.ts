// Shared by the wasm tests: a call must throw a GpprobeError with exactly this code and message.
import { expect } from 'vitest';
import { GpprobeError } from '../../web/src/engine/index.ts';

export function expectError(run: () => unknown, code: string, message: string): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GpprobeError);
    expect((error as GpprobeError).code).toBe(code);
    expect((error as GpprobeError).message).toBe(message);
    return;
  }
  throw new Error(`expected a GpprobeError with code ${code}`);
}
