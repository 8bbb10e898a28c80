// Data by URL from another site, in Chromium. A second local server plays the data host (CORS for
// the origins it is told to allow, range requests, a log of what it served); a copy of the build
// whose connect-src names that host (scripts/deploy/widen_csp.mjs, as a host would widen it) plays a
// deployment that allows it. Checked: nothing is fetched before the reader confirms the host; the
// default build's CSP still refuses, with a message saying what to change; confirmed data loads and
// gives the numbers of the same files loaded from the app's own origin; a host without CORS gets a
// message naming the header; Parquet is read by ranges, in a parse worker that Cancel or a time budget
// stops when a hostile file hangs the reader; a Projector config loads with its sprite.
// Every test keeps the no-console-error and no-foreign-request checks; the one allowed foreign
// origin is the data host's.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { widenConnectSrc } from '../../scripts/deploy/widen_csp.mjs';
import { createProbeEngine } from '../../web/src/engine/index.ts';
import { browserPerFile, downloadText, patient, SHOTS, slow, waitForResults, watchedPage } from './browser.ts';
import { COLS, ROWS, uploads } from './formats.ts';
import { serveStatic, type Served } from './static_server.ts';

const baseUrl = inject('baseUrl');
const servers: Server[] = [];
const log: Served[] = [];
const corsOrigins = new Set<string>();
let dataUrl = '',
  wideUrl = '',
  wideDir = '';

// Ports are known only once the servers listen: the data host first, then the widened app.
const ready = (async () => {
  const data = await serveStatic('.', '', { corsOrigins, log });
  dataUrl = data.url;
  wideDir = mkdtempSync(join(tmpdir(), 'gpprobe-wide-'));
  cpSync('dist/app', wideDir, { recursive: true });
  writeFileSync(
    join(wideDir, 'index.html'),
    widenConnectSrc(readFileSync(join(wideDir, 'index.html'), 'utf8'), [dataUrl]),
  );
  const wide = await serveStatic(wideDir, '');
  wideUrl = `${wide.url}/`;
  corsOrigins.add(wide.url).add(new URL(baseUrl).origin);
  servers.push(data.server, wide.server);
})();
await ready;
const pages = browserPerFile([new URL(baseUrl).origin, new URL(wideUrl).origin, dataUrl]);

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(wideDir, { recursive: true, force: true });
  rmSync('test-results/remote', { recursive: true, force: true });
});

const DEMO = 'web/public/demo/digits';
const HANG = 'tests/reference/hostile/bitpacked_hang.parquet';
const hostDialog = (page: Page) => page.getByRole('dialog', { name: 'Load data from another site?' });
const served = (path: string) => log.filter((r) => r.path.endsWith(path));
const alerts = async (page: Page) => (await page.getByRole('alert').allTextContents()).join(' ');

/**
 * The exported results are the engine's: a probe fitted here (ε = 0.1, s = 5) on the rows the app
 * observed, with their concept labels, gives every row's judged probability to 12 digits.
 */
async function expectEngineNumbers(
  csv: string,
  x: { data: Float32Array | Float64Array; rows: number; cols: number },
): Promise<void> {
  const [header, ...rows] = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  expect(rows.length).toBe(x.rows);
  const column = (name: string) => header.indexOf(name);
  const observed = rows.filter((r) => r[column('is_observation')] === '1').map((r) => Number(r[column('row')]));
  expect(observed.length).toBeGreaterThan(1);
  const values = observed.flatMap((i) => Array.from(x.data.subarray(i * x.cols, (i + 1) * x.cols)));
  const gather = x.data instanceof Float32Array ? Float32Array.from(values) : Float64Array.from(values); // the app's precision
  const engine = await createProbeEngine();
  const probe = engine.fitProbe({
    observations: { data: gather, rows: observed.length, cols: x.cols },
    labels: Uint8Array.from(observed, (i) => Number(rows[i][column('concept')])),
    epsilon: 0.1,
    strength: 5,
  });
  const scores = probe.score(x);
  probe.dispose();
  rows.forEach((r, i) => expect(Number(r[column('judged_probability')])).toBeCloseTo(scores.judgedProbability[i], 12));
}

describe('data from another site', () => {
  it('is not fetched before the reader confirms it, and is refused with a message when they do not', async () => {
    const page = pages.page;
    log.length = 0;
    await page.goto(`${baseUrl}?data=${dataUrl}/${DEMO}/embeddings.npy&metadata=${dataUrl}/${DEMO}/metadata.csv`);
    await hostDialog(page).waitFor();
    expect(await hostDialog(page).textContent()).toContain(dataUrl);
    await page.screenshot({ path: `${SHOTS}/host-confirmation.png` });
    expect(log).toEqual([]);
    await hostDialog(page).getByRole('button', { name: "Don't load" }).click();
    await expect
      .poll(() => alerts(page))
      .toContain(
        `Not loaded: embeddings.npy, metadata.csv from ${dataUrl} (loading data from another site needs your confirmation).`,
      );
    await waitForResults(page); // the demo instead
    expect(log).toEqual([]);
  });

  it("is refused by the default build's CSP, with what the host must change", async () => {
    const page = pages.page;
    log.length = 0;
    await page.goto(`${baseUrl}?data=${dataUrl}/${DEMO}/embeddings.npy`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await expect
      .poll(() => alerts(page), { timeout: patient(30_000) })
      .toContain(
        `embeddings.npy: this page's Content-Security-Policy does not allow loading data from ${dataUrl}; whoever hosts gpprobe must add ${dataUrl} to connect-src`,
      );
    // Parquet is read in a parse worker of its own: the page's policy governs its range requests too.
    await page.goto(`${baseUrl}?data=${dataUrl}/${HANG}`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await expect
      .poll(() => alerts(page), { timeout: patient(30_000) })
      .toContain(
        `bitpacked_hang.parquet: this page's Content-Security-Policy does not allow loading data from ${dataUrl}; whoever hosts gpprobe must add ${dataUrl} to connect-src`,
      );
    expect(log).toEqual([]);
  });

  it("loads once confirmed where the CSP allows it, with the numbers of the same files from the app's origin", async () => {
    const page = pages.page;
    const settings = 'concept=closed_loop=1&queries=split=test&per-class=8&seed=1&epsilon=0.1&strength=5';
    await page.goto(
      `${wideUrl}?data=${dataUrl}/${DEMO}/embeddings.npy&metadata=${dataUrl}/${DEMO}/metadata.csv&ood=${dataUrl}/${DEMO}/ood_embeddings.npy&${settings}`,
    );
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('embeddings.npy + metadata.csv');
    const remote = await downloadText(page, 'Export results (CSV)');
    expect(served('/embeddings.npy').length).toBe(1);
    await page.getByRole('tab', { name: 'Out-of-distribution' }).click();
    await expect.poll(() => page.getByTestId('ood-split').textContent()).toContain('against the 512 OOD rows');

    const context = await pages.browser.newContext({ acceptDownloads: true });
    try {
      const local = await watchedPage(context, new URL(wideUrl).origin);
      await local.page.goto(`${wideUrl}?demo=digits&${settings}`);
      await waitForResults(local.page);
      expect(await downloadText(local.page, 'Export results (CSV)')).toBe(remote);
      expect(local.consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('loads every format the app reads, by URL', async () => {
    const page = pages.page;
    for (const [format, files] of Object.entries(uploads())) {
      mkdirSync(`test-results/remote/${format}`, { recursive: true });
      for (const f of files) writeFileSync(`test-results/remote/${format}/${f.name}`, f.buffer);
      const [data, ...metadata] = files.map((f) => `${dataUrl}/test-results/remote/${format}/${f.name}`);
      await page.goto(`${wideUrl}?data=${data}${metadata.map((m) => `&metadata=${m}`).join('')}`);
      await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
      await waitForResults(page);
      expect(await page.locator('.dataset-name').textContent(), format).toBe(files.map((f) => f.name).join(' + '));
      expect(await page.locator('.data-panel .hint').first().textContent(), format).toContain(
        `${ROWS} rows × ${COLS} dimensions`,
      );
    }
  });

  it('from a host that does not allow this origin by CORS gets a message naming the header', async () => {
    const page = pages.page;
    await page.goto(`${wideUrl}?data=${dataUrl}/nocors/${DEMO}/embeddings.npy`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await expect
      .poll(() => alerts(page), { timeout: patient(30_000) })
      .toContain(
        `embeddings.npy: could not be fetched from ${dataUrl}: its server must allow this page's origin (${new URL(wideUrl).origin}) by CORS, with the header Access-Control-Allow-Origin`,
      );
    await page.goto(`${wideUrl}?data=${dataUrl}/nocors/${HANG}`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await expect
      .poll(() => alerts(page), { timeout: patient(30_000) })
      .toContain(
        `bitpacked_hang.parquet: could not be fetched from ${dataUrl}: its server must allow this page's origin (${new URL(wideUrl).origin}) by CORS, with the header Access-Control-Allow-Origin`,
      );
  });

  it('stops a Parquet file that hangs the reader: Cancel at once, else its time budget, naming the URL; the data loaded before stays', async () => {
    const page = pages.page;
    const hang = `${dataUrl}/${HANG}`;
    const link = `${wideUrl}?data=${dataUrl}/${DEMO}/embeddings.npy&metadata=${dataUrl}/${DEMO}/metadata.csv&concept=closed_loop=1&seed=1&epsilon=0.1&strength=5`;
    const name = 'embeddings.npy + metadata.csv';
    // The same data without the hostile OOD set: what must be kept.
    await page.goto(link);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await waitForResults(page);
    const results = await downloadText(page, 'Export results (CSV)');

    // Cancel: the engine worker is free, the parse worker is ended.
    log.length = 0;
    await page.goto(`${link}&ood=${hang}`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    const oodTask = page.locator('.task-bar .task', { hasText: 'Loading the OOD set bitpacked_hang.parquet' });
    await oodTask.waitFor({ timeout: patient(60_000) });
    // Cancel once the file has been read (its footer and column chunk by range requests) and the reader spins.
    await expect
      .poll(() => served('/bitpacked_hang.parquet').filter((r) => r.method === 'GET').length, {
        timeout: patient(10_000),
      })
      .toBeGreaterThanOrEqual(2);
    await page.waitForTimeout(slow(500));
    const pressed = Date.now();
    await oodTask.getByRole('button', { name: 'Cancel' }).click();
    await oodTask.waitFor({ state: 'detached', timeout: slow(5_000) });
    expect(Date.now() - pressed).toBeLessThan(slow(5_000));
    expect(served('/bitpacked_hang.parquet').every((r) => r.method === 'HEAD' || r.range !== null)).toBe(true);
    await waitForResults(page);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('.dataset-name').textContent()).toBe(name);
    expect(await downloadText(page, 'Export results (CSV)')).toBe(results);

    // Left alone, the budget (10 s after its last read, for a file this small) stops it, naming the URL.
    await page.goto(`${link}&ood=${hang}`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await oodTask.waitFor({ timeout: patient(60_000) });
    const started = Date.now();
    await expect
      .poll(() => alerts(page), { timeout: slow(30_000) })
      .toContain(
        `bitpacked_hang.parquet: the parquet reader made no progress reading ${hang} for 10 s and was stopped; the file is damaged or built to hang the reader`,
      );
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeGreaterThan(9);
    expect(seconds).toBeLessThan(10 + slow(10_000) / 1000); // the 10 s budget, then at most 10 s (quiet) to be shown
    expect(await page.locator('.dataset-name').textContent()).toBe(name);
    await waitForResults(page);
    expect(await downloadText(page, 'Export results (CSV)')).toBe(results);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: `${SHOTS}/remote-parquet-hang.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/remote-parquet-hang-phone.png` });
    await page.setViewportSize({ width: 1440, height: 1000 }); // the harness's, for the tests after this one

    // The engine still answers on the kept data: one more observation gives a new run.
    const summary = await page.getByTestId('run-summary').textContent();
    await page.locator('table.results tbody input[aria-label^="Observation "]:not(:checked)').first().check();
    await expect
      .poll(() => page.getByTestId('run-summary').textContent(), { timeout: patient(30_000) })
      .not.toBe(summary);
  });

  it('reads Parquet by range requests: the footer and the used columns, not the file', async () => {
    const page = pages.page;
    const TABLE_ROWS = 600;
    let seed = 7;
    const noise = (n: number) =>
      Uint8Array.from({ length: n }, () => {
        seed ^= seed << 13;
        seed ^= seed >>> 17;
        seed ^= seed << 5;
        return seed >>> 24;
      });
    const vectors = Array.from({ length: TABLE_ROWS }, (_, i) =>
      Array.from({ length: 8 }, (_, j) => Math.cos(i * 0.11 + j * (i % 3 === 0 ? 1 : -1))),
    );
    const list = (name: string) => [
      { name, repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
      { name: 'element', repetition_type: 'REQUIRED' as const, type: 'DOUBLE' as const },
    ];
    mkdirSync('test-results/remote', { recursive: true });
    const file = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'embedding', data: vectors },
          { name: 'kind', data: Array.from({ length: TABLE_ROWS }, (_, i) => (i % 3 === 0 ? 'cat' : 'dog')) },
          { name: 'photo', data: Array.from({ length: TABLE_ROWS }, () => noise(20_000)) },
        ],
        schema: [
          { name: 'root', num_children: 3 },
          ...list('embedding'),
          { name: 'kind', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
          { name: 'photo', repetition_type: 'REQUIRED', type: 'BYTE_ARRAY' },
        ],
      }),
    );
    writeFileSync('test-results/remote/table.parquet', file);
    log.length = 0;
    await page.goto(
      `${wideUrl}?data=${dataUrl}/test-results/remote/table.parquet&concept=kind=cat&epsilon=0.1&strength=5`,
    );
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await waitForResults(page);
    expect(await page.locator('.data-panel .hint').first().textContent()).toContain(
      `${TABLE_ROWS} rows × 8 dimensions`,
    );
    await expectEngineNumbers(await downloadText(page, 'Export results (CSV)'), {
      data: Float64Array.from(vectors.flat()),
      rows: TABLE_ROWS,
      cols: 8,
    });
    const requests = served('/table.parquet');
    const bytes = requests.reduce((s, r) => s + r.bytes, 0);
    expect(requests.filter((r) => r.method === 'GET').every((r) => r.range !== null)).toBe(true);
    expect(file.byteLength).toBeGreaterThan(12e6);
    expect(bytes).toBeLessThan(0.1 * file.byteLength);
    console.log(
      `Parquet over HTTP: ${requests.length} requests, ${bytes.toLocaleString('en-US')} of ${file.byteLength.toLocaleString('en-US')} bytes`,
    );
  });
});

describe('an Embedding Projector config', () => {
  const config = () => `${dataUrl}/tests/e2e/fixtures/projector/projector_config.json`;

  it('offers its embeddings, reads the chosen .bytes with its shape, and shows sprite thumbnails', async () => {
    const page = pages.page;
    await page.goto(`${wideUrl}?config=${config()}`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    const chooser = page.getByRole('dialog', { name: 'Which embedding?' });
    await chooser.waitFor();
    expect(await chooser.getByRole('button').allTextContents()).toEqual([
      'Digits: hidden layer 300 × 64',
      'Digits: pixels 300 × 64',
      'Cancel',
    ]);
    await chooser.getByRole('button', { name: /Digits: hidden layer/ }).click();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('Digits: hidden layer');
    // The one-column metadata.tsv has no header: 300 rows, the first one a digit, not a column name.
    expect(await page.locator('.data-panel .hint').first().textContent()).toContain(
      '300 rows × 64 dimensions · 1 metadata column',
    );
    expect(await page.locator('select[aria-label="Concept column"]').inputValue()).toBe('metadata');

    // The probe's numbers are the engine's on the same rows of the demo's .npy (hidden.bytes holds them).
    const { parseNpy } = await import('../../web/src/io/npy.ts');
    const x = parseNpy(readFileSync(`${DEMO}/embeddings.npy`), 'embeddings.npy');
    await expectEngineNumbers(await downloadText(page, 'Export results (CSV)'), {
      data: x.data.subarray(0, 300 * 64),
      rows: 300,
      cols: 64,
    });

    // Thumbnails: in the table, the detail panel and the tooltip, each cut from the sheet where the
    // Projector puts row i (column i mod 18, row ⌊i / 18⌋ of 8 × 8 cells).
    await expect.poll(() => page.locator('table.results td.thumb .thumbnail').count()).toBeGreaterThan(5);
    await page.locator('table.results tbody tr[aria-selected]').nth(19).click();
    const thumb = page.locator('.selection-title .thumbnail');
    expect(await thumb.getAttribute('aria-label')).toBe('thumbnail of row 19');
    const style = await thumb.evaluate((e) => ({
      position: getComputedStyle(e).backgroundPosition,
      size: getComputedStyle(e).backgroundSize,
      width: getComputedStyle(e).width,
    }));
    expect(style).toEqual({ position: '-64px -64px', size: '1152px 1152px', width: '64px' }); // 8× scale: column 1, row 1
    // Hover a drawn point: a strongly coloured pixel of the map inside its axes (left of the colour bar).
    const canvas = page.getByTestId('map-plot').locator('canvas[role="img"]');
    const point = await canvas.evaluate((c: HTMLCanvasElement) => {
      const ratio = c.width / c.clientWidth;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      for (let y = Math.round(40 * ratio); y < c.height - 45 * ratio; y += 2) {
        for (let x = Math.round(60 * ratio); x < c.width - 70 * ratio; x += 2) {
          const k = 4 * (y * c.width + x);
          if (Math.max(data[k], data[k + 1], data[k + 2]) - Math.min(data[k], data[k + 1], data[k + 2]) > 120)
            return { x: x / ratio, y: y / ratio };
        }
      }
      return null;
    });
    expect(point).not.toBeNull();
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + point!.x, box.y + point!.y);
    const hovered = await page
      .locator('.tooltip .thumbnail')
      .waitFor({ timeout: patient(5000) })
      .then(
        () => true,
        () => false,
      );
    await page.screenshot({ path: `${SHOTS}/projector-sprites.png` });
    expect(hovered).toBe(true);
    await page.screenshot({ path: `${SHOTS}/projector-sprites.png` });
  });

  it('is loaded without a question when a <gpprobe-probe> on the page names it', async () => {
    const page = pages.page;
    writeFileSync(
      join(wideDir, 'element.html'),
      `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>host</title>
      <script type="module" src="./embed.js"></script>
      <gpprobe-probe id="p" config="${config()}" embedding="Digits: hidden layer" concept="metadata=0" views="map"></gpprobe-probe>`,
    );
    await page.addInitScript(() =>
      document.addEventListener('gpprobe-results', (e) => {
        (window as unknown as { rows?: number }).rows = (e as CustomEvent).detail.rows;
      }),
    );
    await page.goto(`${wideUrl}element.html`);
    await page.waitForFunction(() => (window as unknown as { rows?: number }).rows !== undefined, undefined, {
      timeout: patient(60_000),
    });
    expect(await page.evaluate(() => (window as unknown as { rows?: number }).rows)).toBe(300);
    const frame = page.frames().find((f) => f.url().includes('embed=1'))!;
    expect(await frame.getByRole('dialog').count()).toBe(0);
  });

  it('opens the embedding a link names without asking', async () => {
    const page = pages.page;
    await page.goto(`${wideUrl}?config=${config()}&embedding=Digits: pixels&concept=metadata=0`);
    await hostDialog(page).getByRole('button', { name: 'Load data' }).click();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('Digits: pixels');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });
});
