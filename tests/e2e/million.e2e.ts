// A million embeddings in the browser: 1,000,000 x 128 float32 (512 MB, above the streaming threshold)
// dropped as a file with its labels is streamed from the file (io/streamed_dataset.ts): the first
// results appear, the map is drawn from a sample, a toggle's pass over the file can be cancelled; after
// a session names other observations and a few query rows, the exported scores of those rows (and the
// exported probe's) equal the library's in Node on the same rows, computed from the generator
// (scripts/bench/million_npy.mjs), not from the file; undo scores again. Prints the time from the drop to the
// first results.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProbeEngine, type ProbeEngine } from '../../web/src/engine/index.ts';
import { label, rowValues, writeByteColumn, writeEmbeddings } from '../../scripts/bench/million_npy.mjs';
import { browserPerFile, downloadText, patient, waitForResults } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

const ROWS = 1_000_000,
  COLS = 128;
const CHECK = [0, 7, 123_457, 654_321, 999_997];
const OBSERVATIONS = [0, 1, 2, 3, 4, 5, 6, 9, 12, 300_000, 500_000, 600_003, 700_001, 999_998, 999_999];

let dir: string;
let engine: ProbeEngine;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gpprobe-million-'));
  writeEmbeddings(join(dir, 'million.npy'), ROWS, COLS);
  writeByteColumn(join(dir, 'labels.npy'), ROWS, label);
  writeByteColumn(join(dir, 'check.npy'), ROWS, (i) => (CHECK.includes(i) ? 1 : 0));
  engine = await createProbeEngine();
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function rowsOf(rows: number[]): Float32Array {
  const out = new Float32Array(rows.length * COLS);
  rows.forEach((r, k) => rowValues(r, COLS, out, k * COLS));
  return out;
}

describe('a million embeddings', () => {
  it("are streamed from the file: first results, then the engine's numbers for chosen rows", async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    const names = ['million.npy', 'labels.npy', 'check.npy'];
    const start = Date.now();
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles(names.map((n) => join(dir, n)));
    await page.waitForFunction(
      (n) => {
        const summary = document.querySelector('[data-testid="run-summary"]');
        return summary?.textContent?.includes(n) && !summary.classList.contains('stale');
      },
      ROWS.toLocaleString('en-US'),
      { timeout: patient(60_000) },
    );
    const firstResults = (Date.now() - start) / 1000;
    await waitForResults(page);
    console.log(
      `million.e2e: ${ROWS} x ${COLS} float32 dropped -> first results ${firstResults.toFixed(1)} s, every task done ${((Date.now() - start) / 1000).toFixed(1)} s`,
    );
    expect(await page.locator('.dataset-name').textContent()).toBe(names.join(' + '));
    expect(await page.locator('.data-panel .hint').first().textContent()).toContain(
      `${ROWS.toLocaleString('en-US')} rows × ${COLS} dimensions`,
    );
    await expect.poll(() => page.locator('[data-testid="map-plot"] canvas[role="img"]').count()).toBe(1);
    expect(await page.locator('table.results tbody tr[aria-selected]').count()).toBeGreaterThan(10);
    expect(await page.locator('[data-testid="map-plot"] canvas[role="img"]').getAttribute('aria-label')).toBe(
      'Embedding map (PCA of a sample of 20,000 rows)',
    );
    // No error (the leave-one-out panel's caveat, an alert too, may say the drawn observations are too few).
    expect(await page.locator('.message.error').count()).toBe(0);

    // A toggle reads the file again, with progress; Cancel stops the pass and keeps the results shown.
    const shown = await page.getByTestId('run-summary').textContent();
    await page.locator('table.results tbody input[aria-label^="Observation"]').nth(1).click();
    const pass = page.locator('.task-bar .task', { hasText: 'scoring (reading the file)' });
    await pass.getByRole('button', { name: 'Cancel' }).click({ timeout: patient(30_000) });
    await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(30_000) });
    expect(await page.locator('.message.error').count()).toBe(0);
    expect(await page.getByTestId('run-summary').textContent()).toBe(`Settings changed since this run · ${shown}`);

    // A session with other observations, and the query rows of check.npy: the file is read again.
    const session = {
      version: 1,
      data: { kind: 'upload', files: names.map((n) => ({ name: n, size: statSync(join(dir, n)).size })) },
      concept: { column: 'labels', kind: 'values', positives: ['1'] },
      observations: OBSERVATIONS,
      epsilon: 0.1,
      strength: 5,
      draw: { perClass: 8, seed: 1 },
      ood: { kind: 'none' },
      queries: { kind: 'values', column: 'check', values: ['1'] },
    };
    await page
      .locator('input[aria-label="Session file"]')
      .setInputFiles([{ name: 's.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(session)) }]);
    await expect
      .poll(() => page.getByTestId('run-summary').textContent(), { timeout: patient(60_000) })
      .toContain('showing the 5 queries of the subset');
    await waitForResults(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export results (CSV)' }).click(),
    ]);
    const [header, ...lines] = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const col = (name: string) => header.indexOf(name);
    expect(lines.map((r) => Number(r[col('row')]))).toEqual(CHECK);

    // The library in Node on the generator's rows (the app fits with expectedQueries = its rows).
    const labels = Uint8Array.from(OBSERVATIONS, label);
    const probe = engine.fitProbe({
      observations: { data: rowsOf(OBSERVATIONS), rows: OBSERVATIONS.length, cols: COLS },
      labels,
      epsilon: 0.1,
      strength: 5,
      expectedQueries: ROWS,
    });
    const expected = probe.score({ data: rowsOf(CHECK), rows: CHECK.length, cols: COLS });
    probe.dispose();
    // The exported probe holds the observations' rows as read from the file, and scores as the app does.
    const probeText = await downloadText(page, 'Export probe');
    const file = engine.readProbeFile(probeText);
    expect(file.observationRows).toEqual(OBSERVATIONS);
    expect(Array.from(file.observations.data)).toEqual(Array.from(rowsOf(OBSERVATIONS)));
    expect(file.data).toEqual({ name: names.join(' + '), rows: ROWS, cols: COLS, dtype: 'float32' });
    const loaded = engine.loadProbe(probeText, { expectedQueries: ROWS });
    const fromFile = loaded.score({ data: rowsOf(CHECK), rows: CHECK.length, cols: COLS });
    loaded.dispose();
    expect(Array.from(fromFile.judgedProbability)).toEqual(Array.from(expected.judgedProbability));
    lines.forEach((r, k) => {
      expect(r[col('is_observation')]).toBe(OBSERVATIONS.includes(CHECK[k]) ? '1' : '0');
      expect(Number(r[col('concept')])).toBe(label(CHECK[k]));
      for (const [name, key] of [
        ['judged_probability', 'judgedProbability'],
        ['episteme', 'episteme'],
        ['alea', 'alea'],
        ['latent_mean', 'latentMean'],
        ['latent_variance', 'latentVariance'],
      ] as const) {
        const want = expected[key][k];
        expect(Math.abs(Number(r[col(name)]) - want), `${name} of row ${CHECK[k]}`).toBeLessThan(
          1e-9 * Math.max(1, Math.abs(want)),
        );
      }
    });

    // Undo goes back to every row as a query and the drawn observations: scored again from the file.
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent()).not.toContain('subset');
    await waitForResults(page);
    expect(await page.getByTestId('run-summary').textContent()).toMatch(
      /^1,000,000 rows scored in \d+ ms \(\w+ space, fitted\)$/,
    );
    expect(await page.locator('.message.error').count()).toBe(0);
  });
});
