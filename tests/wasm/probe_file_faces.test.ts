// One probe file reader for every face: hostile probe files through the CLI (`gpprobe probe --probe FILE`),
// Python (`gpprobe.Probe.from_file_bytes`) and the library (`engine.loadProbe`, the wasm module), each
// accepted by all three or refused by all three with the same message, the one written here by hand.
// When the library had a reader of its own (JSON.parse, JSON.stringify) it took the invalid UTF-8, the
// lone surrogate and the 0 x 2^40 observations that the CLI and Python refused, took the row number -0
// that they refused, and showed 9007199254740993 as 9007199254740992, 1e20 as 100000000000000000000,
// -5.0 as -5 and 1e-400 as 0, lists and objects whole and long text uncut.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, GpprobeError, type ProbeEngine } from '../../web/src/engine/index.ts';

// 2 x 2 float64 observations [[1, 0], [0, 1]], little-endian, as make_probe_file_cases.py writes them.
const DATA = Buffer.from(new Float64Array([1, 0, 0, 1]).buffer).toString('base64');

function probeText({
  epsilon = '0.1',
  strength = '5',
  observations = `"rows": 2, "cols": 2, "dtype": "float64", "data": "${DATA}"`,
  labels = '[0, 1]',
  extra = '',
} = {}): string {
  return (
    `{"format": "gpprobe-probe", "version": 1, "epsilon": ${epsilon}, "strength": ${strength}, ` +
    `"space": "function", "observations": {${observations}}, "labels": ${labels}${extra}}\n`
  );
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** The file with `"data": {"name": <bytes>, ...}`: `nameBytes` the JSON string's bytes, quotes included. */
const withDataName = (nameBytes: Buffer) => {
  const [head, tail] = probeText({ extra: ', "data": {"name": NAME, "rows": 2, "cols": 2, "dtype": "float64"}' }).split(
    'NAME',
  );
  return Buffer.concat([utf8(head), nameBytes, utf8(tail)]);
};

// name -> [file bytes, the message after the face's "<file>: " prefix, or null: read and fitted]
const CASES: Record<string, [Buffer, string | null]> = {
  empty: [Buffer.alloc(0), 'file is empty'],
  trailing_text: [utf8(probeText() + 'x'), 'not JSON'],
  byte_order_mark: [Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8(probeText())]), null],
  invalid_utf8: [withDataName(Buffer.from([0x22, 0x64, 0xff, 0x22])), 'not JSON'],
  lone_surrogate: [withDataName(utf8('"\\ud800"')), 'not JSON'],
  duplicate_key_last_wins: [
    utf8(probeText({ extra: ', "epsilon": -1' })),
    '"epsilon" must be a positive number, got -1',
  ],
  epsilon_underflows_to_zero: [utf8(probeText({ epsilon: '1e-400' })), '"epsilon" must be a positive number, got 0.0'],
  epsilon_negative_float: [utf8(probeText({ epsilon: '-5.0' })), '"epsilon" must be a positive number, got -5.0'],
  epsilon_list: [utf8(probeText({ epsilon: '[1, 2]' })), '"epsilon" must be a positive number, got a list of 2 values'],
  strength_object: [utf8(probeText({ strength: '{"a": 1}' })), '"strength" must be a positive number, got an object'],
  dtype_long_text: [
    utf8(probeText({ observations: `"rows": 2, "cols": 2, "dtype": "${'x'.repeat(50)}", "data": "${DATA}"` })),
    `"observations.dtype" must be "float32" or "float64", got "${'x'.repeat(39)}...`,
  ],
  rows_1e20_written_out: [
    utf8(
      probeText({ observations: `"rows": 100000000000000000000, "cols": 2, "dtype": "float64", "data": "${DATA}"` }),
    ),
    '"observations.rows" must be a non-negative integer, got 1e+20',
  ],
  zero_rows_of_2_40_columns: [
    utf8(probeText({ observations: '"rows": 0, "cols": 1099511627776, "dtype": "float64", "data": ""', labels: '[]' })),
    'observations of 0 x 1099511627776 float64 values cannot be stored (0 bytes of data)',
  ],
  row_number_minus_zero: [utf8(probeText({ extra: ', "observation_rows": [-0, 1]' })), null],
  row_number_beyond_2_53: [
    utf8(probeText({ extra: ', "observation_rows": [9007199254740993, 1]' })),
    '"observation_rows[0]" must be a non-negative integer, got 9007199254740993',
  ],
  label_minus_zero: [utf8(probeText({ labels: '[-0, 1]' })), null],
};

const directory = mkdtempSync(join(tmpdir(), 'gpprobe-probe-faces-'));
const pathOf = (caseName: string) => join(directory, `${caseName}.probe.json`);
for (const [caseName, [bytes]] of Object.entries(CASES)) writeFileSync(pathOf(caseName), bytes);
const queries = join(directory, 'q.csv');
writeFileSync(queries, '1,0\n0.5,0.5\n');

/** The CLI's verdict: null when it scored the queries, else its message after "gpprobe probe: <path>: ". */
function cliVerdict(caseName: string): string | null {
  const path = pathOf(caseName);
  const run = spawnSync('build/native/gpprobe', ['probe', '--probe', path, '--queries', queries], { encoding: 'utf8' });
  if (run.status === 0) return null;
  const prefix = `gpprobe probe: ${path}: `;
  return run.stderr.startsWith(prefix)
    ? run.stderr.slice(prefix.length).trimEnd()
    : `(exit ${run.status}) ${run.stderr}`;
}

/** Python's verdicts, one interpreter for all: null when Probe.from_file_bytes fitted, else its message. */
function pythonVerdicts(): Record<string, string | null> {
  const script = `
import json, pathlib, sys
import gpprobe
out = {}
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.probe.json")):
    try:
        gpprobe.Probe.from_file_bytes(path.read_bytes())
        out[path.name[: -len(".probe.json")]] = None
    except gpprobe.Error as e:
        out[path.name[: -len(".probe.json")]] = str(e)
print(json.dumps(out))
`;
  const run = spawnSync('/usr/bin/python3', ['-c', script, directory], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: 'build/native/python' },
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, string | null>;
}

let engine: ProbeEngine;
let python: Record<string, string | null>;
beforeAll(async () => {
  engine = await createProbeEngine();
  python = pythonVerdicts();
}, 60_000);

/** The library's verdict: null when engine.loadProbe fitted, else its message. */
function libraryVerdict(bytes: Buffer): string | null {
  try {
    engine.loadProbe(new Uint8Array(bytes)).dispose();
    return null;
  } catch (error) {
    if (!(error instanceof GpprobeError)) throw error;
    expect(error.code).toBe('parse_error');
    return error.message;
  }
}

describe('every face reads a probe file with the one reader', () => {
  for (const [caseName, [bytes, message]] of Object.entries(CASES)) {
    it(`${caseName}: ${message === null ? 'read by all' : 'refused by all'}`, () => {
      const verdicts = {
        cli: cliVerdict(caseName),
        python: python[caseName],
        library: libraryVerdict(bytes),
      };
      const want = message === null ? null : `probe file: ${message}`;
      expect(verdicts).toEqual({ cli: message, python: want, library: want });
    });
  }
});
