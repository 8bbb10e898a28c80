// "N random observations per class": the app draws through the wasm module, and the native CLI
// (`gpprobe draw`, built by the same `npm test` before this runs) must print the same rows for the same
// labels and seed, on the digits demo's concept; both equal the independent Python mirror's rows.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type ProbeEngine } from '../../web/src/engine/index.ts';

const CLI = 'build/native/gpprobe';

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

/** The rows `gpprobe draw` prints for these labels. */
function cliDraw(labels: Uint8Array, perClass: number, seed: number): number[] {
  const dir = mkdtempSync(join(tmpdir(), 'gpprobe-draw-'));
  try {
    const file = join(dir, 'labels.txt');
    writeFileSync(file, `${Array.from(labels).join('\n')}\n`);
    const out = execFileSync(CLI, ['draw', '--labels', file, '--per-class', String(perClass), '--seed', String(seed)], {
      encoding: 'utf8',
    });
    const [header, ...rows] = out.trim().split('\n');
    expect(header).toBe('row');
    return rows.map(Number);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

describe('the observation draw', () => {
  it("gives the CLI's rows in the app, on the demo's concept", () => {
    const [header, ...lines] = readFileSync('web/public/demo/digits/metadata.csv', 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const labels = Uint8Array.from(lines, (cells) => Number(cells[header.indexOf('closed_loop')]));
    for (const [perClass, seed] of [
      [8, 1],
      [8, 2],
      [100, 7],
      [2000, 3],
    ]) {
      const app = Array.from(engine.drawObservations(labels, perClass, seed));
      expect(app, `${perClass} per class, seed ${seed}`).toEqual(cliDraw(labels, perClass, seed));
      expect(app.length).toBe(
        Math.min(perClass, labels.filter((y) => y === 1).length) +
          Math.min(perClass, labels.filter((y) => y === 0).length),
      );
    }
  });

  it('equals the independent reference draw', () => {
    const cases = JSON.parse(readFileSync('tests/reference/evaluation/observation_draw.json', 'utf8')).cases as {
      labels: number[];
      per_class: number;
      seed: number;
      rows: number[];
    }[];
    for (const c of cases) {
      expect(Array.from(engine.drawObservations(Uint8Array.from(c.labels), c.per_class, c.seed))).toEqual(c.rows);
    }
  });
});
