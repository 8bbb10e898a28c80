// The two SIMD builds of the module (load_module.ts): the relaxed twin, whose hot loops fuse their
// multiply-adds (core/src/linalg/fused.h, opcodes renumbered by scripts/make/relaxed_opcodes.mjs), and the plain
// twin every engine with wasm SIMD runs. Vitest runs Node with --experimental-wasm-relaxed-simd
// (vitest.config.ts), as Chromium runs relaxed SIMD by default, so every other wasm test (the float32
// products' bound among them) runs the relaxed twin; golden.test.ts runs both.
import { readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { chosenSimd, relaxedSimdSupported } from '../../web/src/engine/load_module.ts';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../../web/src/engine/index.ts';

// An FMA3 CPU (x86) or any 64-bit ARM: there V8 turns relaxed_madd into one fused instruction.
const cpuHasFma = process.arch === 'arm64' || /^flags\s*:.*\bfma\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));

let relaxed: ProbeEngine;
let plain: ProbeEngine;
beforeAll(async () => {
  relaxed = await createProbeEngine({ simd: 'relaxed' });
  plain = await createProbeEngine({ simd: 'simd128' });
});

afterEach(() => {
  vi.restoreAllMocks();
});

const COLUMNS = ['latentMean', 'latentVariance', 'judgedProbability', 'episteme', 'alea'] as const;

function largestDifference(a: ProbeScores, b: ProbeScores): number {
  let largest = 0;
  for (const name of COLUMNS)
    a[name].forEach((x, i) => {
      largest = Math.max(largest, Math.abs(x - b[name][i]));
    });
  return largest;
}

describe('choosing the SIMD build', () => {
  it('finds relaxed SIMD in this Node (the suite passes the flag) and loads the relaxed twin by default', async () => {
    expect(relaxedSimdSupported()).toBe(true);
    expect(chosenSimd()).toBe('relaxed');
    expect(relaxed.backend).toBe('wasm-relaxed-simd');
    expect(plain.backend).toBe('wasm-simd128');
    const byDefault = await createProbeEngine();
    expect(byDefault.backend).toBe('wasm-relaxed-simd');
  });

  it('falls back to the plain twin where the engine has no relaxed SIMD, and says so when asked for it', () => {
    vi.spyOn(WebAssembly, 'validate').mockReturnValue(false);
    expect(relaxedSimdSupported()).toBe(false);
    expect(chosenSimd()).toBe('simd128');
    expect(chosenSimd({ simd: 'simd128' })).toBe('simd128');
    expect(() => chosenSimd({ simd: 'relaxed' })).toThrow(/does not support relaxed SIMD.*simd: 'simd128'/);
  });
});

describe('the relaxed twin', () => {
  it('fuses its multiply-adds on this CPU (one rounding: (1 + 2^-30)(1 - 2^-30) - 1 = -2^-60), the plain one does not', () => {
    expect(relaxed.fusedMultiplyAdd).toBe(cpuHasFma);
    expect(plain.fusedMultiplyAdd).toBe(false);
  });

  // The products differ in their last bits (the kernels fuse: were the opcodes or fused.h lost, the two
  // builds would agree bit for bit) and agree to far better than the 1e-9 the golden tests hold.
  for (const [space, observations, dimension] of [
    ['weight', 300, 96],
    ['function', 60, 200],
  ] as const) {
    it(`scores as the plain twin does to 1e-11, not bit for bit (${space} space, ${observations} x ${dimension})`, () => {
      const data = plain.syntheticEmbeddings(observations, dimension, 7);
      const queries = plain.syntheticEmbeddings(400, dimension, 8).x;
      const scores = [relaxed, plain].map((engine) => {
        const probe = engine.fitProbe({ observations: data.x, labels: data.labels, epsilon: 0.05, strength: 3, space });
        try {
          expect(probe.space).toBe(space);
          return probe.score(queries);
        } finally {
          probe.dispose();
        }
      });
      const difference = largestDifference(scores[0], scores[1]);
      expect(difference).toBeLessThan(1e-11);
      if (cpuHasFma) expect(difference).toBeGreaterThan(0);
    });
  }
});
