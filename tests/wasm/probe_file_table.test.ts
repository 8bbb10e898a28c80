// The library's probe file reader (the core's, through wasm/bindings_probe_file.cpp) against the validation
// table (issue 23, item 9): tests/reference/probe_file/{valid,invalid}/
// (scripts/fixtures/make_probe_file_cases.py), read by tests/core/cli/cli_probe_file_table_test.cpp for the
// CLI. When the library had a reader of its own, the two disagreed: "rows": 6.0 was accepted here and
// refused there; a negative or short "observation_rows" was refused here and ignored there; whitespace
// inside the base64, a null "space" and "data" of any shape were taken here.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, GpprobeError, type ProbeEngine } from '../../web/src/engine/index.ts';

const table = (kind: 'valid' | 'invalid', name: string) =>
  readFileSync(`tests/reference/probe_file/${kind}/${name}`, 'utf8');

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

describe('the probe file validation table', () => {
  const invalid = JSON.parse(table('invalid', 'expected.json')) as Record<string, string>;
  const valid = JSON.parse(table('valid', 'expected.json')) as Record<
    string,
    {
      rows: number;
      cols: number;
      labels: number[];
      space: string;
      observation_rows: number[] | null;
    }
  >;

  it('has the cases the CLI is held to', () => {
    expect(Object.keys(invalid).length).toBeGreaterThanOrEqual(30);
    expect(Object.keys(valid).length).toBeGreaterThanOrEqual(4);
  });

  for (const [name, message] of Object.entries(invalid)) {
    it(`refuses ${name}`, () => {
      let error: unknown;
      try {
        engine.readProbeFile(table('invalid', `${name}.json`));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(GpprobeError);
      expect((error as GpprobeError).code).toBe('parse_error');
      expect((error as GpprobeError).message).toBe(`probe file: ${message}`);
    });
  }

  for (const [name, want] of Object.entries(valid)) {
    it(`reads ${name}`, () => {
      // As bytes, the way engine.loadProbe receives a file.
      const file = engine.readProbeFile(new TextEncoder().encode(table('valid', `${name}.json`)));
      expect([file.observations.rows, file.observations.cols]).toEqual([want.rows, want.cols]);
      expect(Array.from(file.labels)).toEqual(want.labels);
      expect(file.space).toBe(want.space);
      expect(file.observationRows ?? null).toEqual(want.observation_rows);
      expect([file.epsilon, file.strength]).toEqual([0.1, 5]);
      expect(file.observations.data).toBeInstanceOf(Float64Array);
      expect(Array.from(file.observations.data)).toEqual([1, 0, 0, 1]);
    });
  }
});
