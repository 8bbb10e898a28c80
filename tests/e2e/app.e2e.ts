// The built app in Chromium, as a user meets it: the demo, uploads of every format (results equal to
// the engine's for the same arrays), bad files, undo, reload, exports, sub-path hosting. Every test
// also checks: no console errors, and no request leaves the page's origin.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createProbeEngine, type Matrix, type ProbeEngine } from '../../web/src/engine/index.ts';
import { browserPerFile, patient, SHOTS, waitForResults } from './browser.ts';
import { COLS, ROWS, uploads } from './formats.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let engine: ProbeEngine;
let page: Page;

beforeAll(async () => {
  engine = await createProbeEngine();
});
beforeEach(() => {
  page = pages.page;
});

async function exportedCsv(): Promise<{ header: string[]; rows: string[][] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export results (CSV)' }).click(),
  ]);
  const text = readFileSync(await download.path(), 'utf8');
  const [header, ...rows] = text
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  return { header, rows };
}

/** The engine's scores for the observations and labels the export reports, on the same embeddings. */
function engineScores(
  x: number[][],
  csv: { header: string[]; rows: string[][] },
  Type: Float32ArrayConstructor | Float64ArrayConstructor,
) {
  const col = (name: string) => csv.header.indexOf(name);
  const observationRows = csv.rows.filter((r) => r[col('is_observation')] === '1').map((r) => Number(r[col('row')]));
  const labels = Uint8Array.from(observationRows, (i) => Number(csv.rows[i][col('concept')]));
  const observations: Matrix = {
    data: Type.from(observationRows.flatMap((i) => x[i])),
    rows: observationRows.length,
    cols: x[0].length,
  };
  const probe = engine.fitProbe({ observations, labels, epsilon: 0.1, strength: 5 });
  const scores = probe.score({ data: Type.from(x.flat()), rows: x.length, cols: x[0].length });
  probe.dispose();
  return { scores, observationRows };
}

describe('the demo', () => {
  it('opens with the bundled dataset probed and every view filled', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    await expect.poll(() => page.locator('[data-testid="map-plot"] canvas[role="img"]').count()).toBe(1);
    expect(await page.getByTestId('judged-plot').locator('canvas[role="img"]').count()).toBe(1);
    expect(await page.getByTestId('belief-plot').locator('canvas[role="img"]').count()).toBe(1);
    expect(await page.locator('table.results tbody tr[aria-selected]').count()).toBeGreaterThan(10);
    // Key controls have accessible names.
    for (const name of ['Upload embeddings', 'Run probe', 'Export results (CSV)']) {
      expect(await page.getByRole('button', { name }).count(), name).toBe(1);
    }
    await page.screenshot({ path: `${SHOTS}/probe-view.png`, fullPage: true });
    // One engine worker, one wasm module instance, serves every lab until a regression fit needs a second.
    expect(page.workers()).toHaveLength(1);
    await page.getByRole('tab', { name: 'Out-of-distribution' }).click();
    await page.getByTestId('ood-histogram').locator('canvas[role="img"]').waitFor();
    await page.screenshot({ path: `${SHOTS}/ood-view.png` });
  });
});

describe('uploads', () => {
  const { x } = (() => {
    const rows: number[][] = [];
    const lines = uploads().csv[0].buffer.toString('utf8').trim().split('\n').slice(1);
    for (const line of lines) rows.push(line.split(',').slice(0, COLS).map(Number));
    return { x: rows };
  })();

  for (const [format, files] of Object.entries(uploads())) {
    it(`reads ${format} and shows the engine's numbers for the same arrays`, async () => {
      await page.goto(baseUrl);
      await waitForResults(page);
      await page.locator('input[aria-label="Embeddings files"]').setInputFiles(files);
      await expect
        .poll(() => page.locator('.dataset-name').textContent(), { timeout: patient(30_000) })
        .toBe(files.map((f) => f.name).join(' + '));
      await waitForResults(page);
      expect(await page.locator('.data-panel .hint').first().textContent()).toContain(
        `${ROWS} rows × ${COLS} dimensions`,
      );
      const csv = await exportedCsv();
      expect(csv.rows.length).toBe(ROWS);
      // float32 files are float32 in the app and in the reference; text formats are float64.
      const Type = ['npy', 'npz', 'safetensors'].includes(format) ? Float32Array : Float64Array;
      const x32 = format === 'parquet' ? x.map((r) => Array.from(Float32Array.from(r))) : x;
      const { scores, observationRows } = engineScores(
        format === 'parquet' ? x32 : x,
        csv,
        format === 'parquet' ? Float64Array : Type,
      );
      expect(observationRows.length).toBe(16); // 8 per class by default
      const judged = csv.header.indexOf('judged_probability'),
        episteme = csv.header.indexOf('episteme');
      csv.rows.forEach((r, i) => {
        expect(Number(r[judged])).toBeCloseTo(scores.judgedProbability[i], 12);
        expect(Number(r[episteme])).toBeCloseTo(scores.episteme[i], 11);
      });
    });
  }

  it("shows a bad file's error and keeps the loaded data", async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const before = await page.locator('.dataset-name').textContent();
    const summary = await page.getByTestId('run-summary').textContent();
    await page
      .locator('input[aria-label="Embeddings files"]')
      .setInputFiles([{ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('x0,x1\n1,2\n3,oops\n') }]);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain("broken.csv: line 3, column 2: 'oops' is not a number");
    expect(await page.locator('.dataset-name').textContent()).toBe(before);
    expect(await page.getByTestId('run-summary').textContent()).toBe(summary);
    await page
      .locator('input[aria-label="Embeddings files"]')
      .setInputFiles([{ name: 'picture.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]);
    await expect
      .poll(async () => (await page.getByRole('alert').allTextContents()).join(' '))
      .toContain(
        'picture.png: is an image: gpprobe reads one as the sprite sheet that a projector_config.json chosen with it names',
      );
    expect(await page.locator('.dataset-name').textContent()).toBe(before);
  });
});

describe('long work', () => {
  it('cancels a long upload and keeps the loaded data', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const before = await page.locator('.dataset-name').textContent();
    // ~40 MB of CSV: long enough to press Cancel while it is read.
    const line = Array.from({ length: 96 }, (_, j) => (j * 0.123456).toFixed(6)).join(',') + '\n';
    const path = `${SHOTS}/../big.csv`;
    writeFileSync(path, Array.from({ length: 96 }, (_, j) => `x${j}`).join(',') + '\n' + line.repeat(60_000));
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles(path);
    const cancel = page.locator('.task-bar').getByRole('button', { name: 'Cancel' });
    await cancel.waitFor({ timeout: patient(30_000) });
    await cancel.click();
    await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(30_000) });
    expect(await page.locator('.dataset-name').textContent()).toBe(before);
    expect(await page.getByRole('alert').count()).toBe(0); // a cancel is not an error
    rmSync(path);
  });
});

describe('the session', () => {
  it('undoes a mistaken click', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const before = await page.locator('#observations-heading + .row + .hint strong').textContent();
    await page.locator('table.results tbody input[aria-label="Observation 2"]').check();
    await expect
      .poll(() => page.locator('#observations-heading + .row + .hint strong').textContent())
      .toBe(String(Number(before) + 1));
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.locator('#observations-heading + .row + .hint strong').textContent()).toBe(before);
    expect(await page.locator('table.results tbody input[aria-label="Observation 2"]').isChecked()).toBe(false);
  });

  it('undoes a slider drag in one step', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    // A drag with the mouse, as a user makes it: held down, moved in ten steps, released. However long
    // the page takes between the steps (a loaded machine: over a second), the gesture is one undo step.
    const slider = page.getByLabel('epsilon slider');
    await slider.scrollIntoViewIfNeeded();
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width * 0.5, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) {
      await page.mouse.move(box.x + box.width * (0.5 + 0.04 * i), y);
      // Slower than the one-second rule for keys, as a loaded page is.
      if (i === 5) await page.waitForTimeout(1200);
    }
    await page.mouse.up();
    const dragged = await page.getByLabel('epsilon', { exact: true }).inputValue();
    expect(dragged).not.toBe('0.1');
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => page.getByLabel('epsilon', { exact: true }).inputValue()).toBe('0.1');
  });

  it('survives a reload, with uploaded data restored from browser storage', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles(uploads().csv);
    await expect.poll(() => page.locator('.dataset-name').textContent(), { timeout: patient(30_000) }).toBe('data.csv');
    await waitForResults(page);
    await page.getByLabel('epsilon', { exact: true }).fill('0.5');
    await page.getByLabel('epsilon', { exact: true }).press('Enter');
    await page.locator('table.results tbody input[aria-label="Observation 1"]').check();
    await waitForResults(page);
    const observations = await page.locator('#observations-heading + .row + .hint strong').textContent();
    await page.reload();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('data.csv');
    expect(await page.getByLabel('epsilon', { exact: true }).inputValue()).toBe('0.5');
    expect(await page.locator('#observations-heading + .row + .hint strong').textContent()).toBe(observations);
    expect(await page.locator('table.results tbody input[aria-label="Observation 1"]').isChecked()).toBe(true);
  });

  it('exports the session and plots, and imports the session back', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const [session] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export session' }).click(),
    ]);
    const text = readFileSync(await session.path(), 'utf8');
    expect(JSON.parse(text)).toMatchObject({ version: 1, data: { kind: 'demo' }, epsilon: 0.1, strength: 5 });
    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Judged probability vs episteme as PNG' }).click(),
    ]);
    expect(
      readFileSync(await png.path())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const [svg] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Judged probability vs episteme as SVG' }).click(),
    ]);
    expect(readFileSync(await svg.path(), 'utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // Change something, then import the exported session: the change is gone.
    await page.getByLabel('strength', { exact: true }).fill('20');
    await page.getByLabel('strength', { exact: true }).press('Enter');
    await page
      .locator('input[aria-label="Session file"]')
      .setInputFiles([{ name: 's.json', mimeType: 'application/json', buffer: Buffer.from(text) }]);
    await expect.poll(() => page.getByLabel('strength', { exact: true }).inputValue()).toBe('5');
  });
});

describe('query subsets', () => {
  it('shows and exports only the chosen rows', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const column = await page.locator('select[aria-label="Query subset column"] option').nth(1).getAttribute('value');
    await page.locator('select[aria-label="Query subset column"]').selectOption(column!);
    const chosen = await page.locator('[aria-label="Query subset values"] .value-option.on .value').textContent();
    const hint = await page.locator('#queries-heading ~ .hint').textContent();
    const shown = Number(hint!.split(' ')[0].replace(/,/g, ''));
    expect(shown).toBeGreaterThan(0);
    expect(Number(await page.locator('table.results').getAttribute('aria-rowcount'))).toBe(shown);
    const csv = await exportedCsv();
    expect(csv.rows.length).toBe(shown);
    const at = csv.header.indexOf(column!);
    expect(csv.rows.every((r) => r[at] === chosen)).toBe(true);
  });
});

describe('hosting', () => {
  it('works from a sub-path of another site', async () => {
    await page.goto(inject('subPathUrl'));
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBeTruthy();
  });
});
