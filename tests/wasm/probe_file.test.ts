// engine.loadProbe and the probe file format in Node: the committed fixtures (written with numpy and
// base64 by scripts/fixtures/make_probe_file_fixtures.py) fit the golden cases' probes, which score
// the golden queries with the golden numbers; a file written by probeFileBytes reads back bit for bit;
// embeddingsId is the SHA-256 Python's hashlib gives; bad files are refused with the field named.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, embeddingsId, probeFileBytes, type ProbeEngine } from '../../web/src/engine/index.ts';
import { expectError } from './expect_error.ts';

interface GoldenCase {
  name: string;
  queries: number[][];
  expected: { mean: number[]; var: number[]; judged: number[]; episteme: number[]; alea: number[] };
}

const golden = (JSON.parse(readFileSync('tests/reference/gpp_golden.json', 'utf8')) as { cases: GoldenCase[] }).cases;
const fixture = (name: string) => readFileSync(`tests/reference/probe_file/${name}`);

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

describe('engine.loadProbe', () => {
  for (const [file, name, space, tolerance] of [
    ['random_o40_d16.float64.probe.json', 'random O=40 d=16', 'function', 1e-8],
    ['random_o30_d64.float32.probe.json', 'random O=30 d=64', 'weight', 4.5e-7],
  ] as const) {
    it(`${file} scores the golden queries of "${name}"`, () => {
      const c = golden.find((g) => g.name === name)!;
      const probe = engine.loadProbe(fixture(file));
      try {
        expect(probe.space).toBe(space);
        const d = c.queries[0].length;
        const r = probe.score({ data: Float64Array.from(c.queries.flat()), rows: c.queries.length, cols: d });
        const pairs = [
          [r.judgedProbability, c.expected.judged],
          [r.episteme, c.expected.episteme],
          [r.alea, c.expected.alea],
          [r.latentMean, c.expected.mean],
          [r.latentVariance, c.expected.var],
        ] as const;
        for (const [actual, expected] of pairs) {
          actual.forEach((v, i) => expect(Math.abs(v - expected[i])).toBeLessThanOrEqual(tolerance));
        }
      } finally {
        probe.dispose();
      }
    });
  }

  it('reads what probeFileBytes writes, bit for bit', () => {
    const original = engine.readProbeFile(fixture('random_o30_d64.float32.probe.json'));
    const again = engine.readProbeFile(probeFileBytes(original));
    expect(again.observations.data).toBeInstanceOf(Float32Array);
    expect(Array.from(again.observations.data)).toEqual(Array.from(original.observations.data));
    expect(again.labels).toEqual(original.labels);
    expect(again.observationRows).toEqual(original.observationRows);
    expect([again.epsilon, again.strength, again.space]).toEqual([0.5, 5, 'weight']);
    expect(again.data).toEqual(original.data);
  });

  it('identifies the data by the SHA-256 that hashlib gives', async () => {
    for (const file of ['random_o40_d16.float64.probe.json', 'random_o30_d64.float32.probe.json']) {
      const p = engine.readProbeFile(fixture(file));
      expect(await embeddingsId(p.observations)).toBe(p.data!.sha256);
    }
  });

  it('refuses bad files with the field and the problem', () => {
    const good = fixture('random_o40_d16.float64.probe.json').toString('utf8');
    const bad = (from: string, to: string) => good.replace(from, to);
    expectError(() => engine.loadProbe('{'), 'parse_error', 'probe file: not JSON');
    expectError(
      () => engine.loadProbe('{"format":"x"}'),
      'parse_error',
      'probe file: not a gpprobe probe file (expected "format": "gpprobe-probe")',
    );
    expectError(
      () => engine.loadProbe(bad('"version": 1', '"version": 2')),
      'parse_error',
      'probe file: version 2 is not one this gpprobe reads (version 1)',
    );
    expectError(
      () => engine.loadProbe(bad('"strength": 10.0', '"strength": 0')),
      'parse_error',
      'probe file: "strength" must be a positive number, got 0',
    );
    expectError(
      () => engine.loadProbe(bad('"rows": 40', '"rows": 41')),
      'parse_error',
      'probe file: observations.data holds 5120 bytes; 41 x 16 float64 values need 5248',
    );
    expectError(
      () => engine.loadProbe(bad('"labels": [', '"labels": [1, ')),
      'parse_error',
      'probe file: "labels" has 41 values for 40 observation rows',
    );
    expectError(
      () => engine.loadProbe(bad('"data": "', '"data": "!')),
      'parse_error',
      'probe file: "observations.data" must be base64 text',
    );
  });
});
