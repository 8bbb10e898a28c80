// The AUROC interval that stays honest at the edges (core auroc_interval.h) through the wasm module, against
// scipy (tests/reference/compare/draws.json, written by scripts/fixtures/reference_compare_draws.py: Newcombe's
// score interval by brentq, its hull with DeLong's clipped normal interval), and the Probe tab's leave-one-out
// verdict on 8 + 8 observations that a probe ranks perfectly: DeLong's standard error is 0 there, so its
// interval reads "1.00 ± 0.00"; the verdict's interval (the core's aurocLower/aurocUpper, which the Probe tab
// shows) is scipy's 0.633–1 at 99 %.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, honestAurocInterval, type ProbeEngine } from '../../web/src/engine/index.ts';
import { normals } from '../web/fixtures.ts';

interface HonestCase {
  auroc: number;
  standard_error: number;
  positives: number;
  negatives: number;
  lower: number;
  upper: number;
}
const reference = JSON.parse(readFileSync('tests/reference/compare/draws.json', 'utf8')) as {
  honest_intervals: HonestCase[];
};

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

describe('honest AUROC intervals', () => {
  it("equal scipy's hull of Newcombe's score interval and DeLong's", () => {
    expect(reference.honest_intervals.length).toBeGreaterThan(2);
    for (const c of reference.honest_intervals) {
      const i = honestAurocInterval(engine, c.auroc, c.standard_error, c.positives, c.negatives, 0.99);
      expect(Math.abs(i.lower - c.lower), `lower of ${JSON.stringify(c)}`).toBeLessThanOrEqual(1e-9);
      expect(Math.abs(i.upper - c.upper), `upper of ${JSON.stringify(c)}`).toBeLessThanOrEqual(1e-9);
    }
    expect(() => honestAurocInterval(engine, 0.9, 0.1, 8, 8, 1)).toThrow(/confidence/);
  });

  it('give the leave-one-out verdict of 8 + 8 separable observations 0.633–1, not 1.00 ± 0.00', () => {
    const z = normals(5);
    const rows = 16,
      cols = 3;
    // Two clusters 12 apart on the first axis, unit noise: every leave-one-out judgement ranks them right.
    const data = Float64Array.from(
      { length: rows * cols },
      (_, i) => z() + (i % cols === 0 ? (i < 8 * cols ? 6 : -6) : 0),
    );
    const labels = Uint8Array.from({ length: rows }, (_, i) => (i < 8 ? 1 : 0));
    const probe = engine.fitProbe({ observations: { data, rows, cols }, labels, epsilon: 0.1, strength: 5 });
    try {
      const loo = probe.leaveOneOut();
      expect(loo.auroc).toBe(1);
      expect(loo.aurocStandardError).toBe(0);
      // DeLong's normal interval collapses: what the Probe tab printed as "1.00 ± 0.00".
      expect([loo.aurocDelongLower, loo.aurocDelongUpper]).toEqual([1, 1]);
      const scipy = reference.honest_intervals.find((c) => c.auroc === 1 && c.positives === 8 && c.negatives === 8)!;
      expect(Math.abs(loo.aurocLower - scipy.lower)).toBeLessThanOrEqual(1e-9);
      expect(loo.aurocLower).toBeCloseTo(0.633, 3);
      expect(loo.aurocUpper).toBe(1);
      expect(loo.verdict).toBe('separates');
    } finally {
      probe.dispose();
    }
  });
});
