// Threads where the page allows them, in Chromium. The same build served three ways: with COOP/COEP
// (as `npm start` serves it) the page is cross-origin isolated, the engine loads its pthreads module
// and the header says so; its exported results, before and after a toggled observation (the rank-one
// path), are the single-threaded page's to the last bit (the CSV holds each number's shortest exact
// form). Served without the headers, and served with them but inside an iframe of a page without them,
// the engine runs on one thread and works. Data from another site still loads into the isolated page
// when its host answers with CORS. Served without the relaxed-SIMD twins' files, the engine falls back to
// the plain twin, says so, and gives the same numbers to rounding.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { widenConnectSrc } from '../../scripts/deploy/widen_csp.mjs';
import { browserPerFile, downloadText, patient, SHOTS, waitForResults, watchedPage } from './browser.ts';
import { serveStatic } from './static_server.ts';

const plainUrl = inject('baseUrl');
const servers: Server[] = [];
const corsOrigins = new Set<string>();
const dirs: string[] = [];
let isolatedUrl = '',
  parentUrl = '',
  dataUrl = '',
  wideUrl = '',
  plainSimdUrl = '';

await (async () => {
  const isolated = await serveStatic('dist/app', '', { isolated: true });
  isolatedUrl = `${isolated.url}/`;
  // A page without the headers that frames the isolated app (another origin, as a blog embeds it).
  const parentDir = mkdtempSync(join(tmpdir(), 'gpprobe-parent-'));
  writeFileSync(
    join(parentDir, 'index.html'),
    `<!doctype html><title>host</title><link rel="icon" href="data:,"><iframe src="${isolatedUrl}" width="1280" height="800" title="gpprobe"></iframe>`,
  );
  const parent = await serveStatic(parentDir, '');
  parentUrl = `${parent.url}/`;
  // A data host with CORS, and the isolated app with its connect-src widened to it (remote.e2e.ts).
  const data = await serveStatic('.', '', { corsOrigins });
  dataUrl = data.url;
  const wideDir = mkdtempSync(join(tmpdir(), 'gpprobe-wide-isolated-'));
  cpSync('dist/app', wideDir, { recursive: true });
  writeFileSync(
    join(wideDir, 'index.html'),
    widenConnectSrc(readFileSync(join(wideDir, 'index.html'), 'utf8'), [dataUrl]),
  );
  const wide = await serveStatic(wideDir, '', { isolated: true });
  wideUrl = `${wide.url}/`;
  corsOrigins.add(wide.url);
  // The app as a host that copied only the plain twins (the relaxed ones' .wasm/.mjs/.worker.js missing).
  const plainSimdDir = mkdtempSync(join(tmpdir(), 'gpprobe-plain-simd-'));
  cpSync('dist/app', plainSimdDir, { recursive: true });
  const relaxedFiles = readdirSync(join(plainSimdDir, 'assets')).filter((f) => f.includes('-relaxed'));
  expect(relaxedFiles.length).toBe(4); // gpprobe-relaxed.wasm, gpprobe-threads-relaxed.{mjs,wasm,worker.js}
  for (const f of relaxedFiles) rmSync(join(plainSimdDir, 'assets', f));
  const plainSimd = await serveStatic(plainSimdDir, '', { isolated: true });
  plainSimdUrl = `${plainSimd.url}/`;
  servers.push(isolated.server, parent.server, data.server, wide.server, plainSimd.server);
  dirs.push(parentDir, wideDir, plainSimdDir);
})();
const pages = browserPerFile([
  new URL(plainUrl).origin,
  new URL(isolatedUrl).origin,
  new URL(parentUrl).origin,
  dataUrl,
  new URL(wideUrl).origin,
  new URL(plainSimdUrl).origin,
]);

afterAll(() => {
  for (const s of servers) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const SETTINGS = 'demo=digits&concept=closed_loop=1&queries=split=test&per-class=8&seed=1&epsilon=0.1&strength=5';

/** The thread count the header shows, e.g. "2 threads". */
async function shownThreads(target: Page | Frame): Promise<string> {
  await target.locator('.engine-threads').waitFor();
  return (await target.locator('.engine-threads').textContent())!.trim();
}

/** What the header says of the SIMD build: "FMA" (relaxed SIMD, fused multiply-adds) or "SIMD". */
async function shownSimd(target: Page | Frame): Promise<string> {
  await target.locator('.engine-simd').waitFor();
  return (await target.locator('.engine-simd').textContent())!.trim();
}

/** The exported results now, and after the first row that is not an observation becomes one. */
async function resultsAndToggled(page: Page): Promise<[string, string]> {
  await waitForResults(page);
  const before = await downloadText(page, 'Export results (CSV)');
  const box = page.locator('table.results tbody input[aria-label^="Observation"]:not(:checked)').first();
  await box.click();
  await expect.poll(() => page.getByTestId('run-summary').textContent()).toContain('every score by a rank-one update');
  await waitForResults(page);
  return [before, await downloadText(page, 'Export results (CSV)')];
}

describe('threads where the page allows them', () => {
  it("runs the threaded module on an isolated page, with the single-threaded page's numbers to the last bit", async () => {
    const page = pages.page;
    await page.goto(`${isolatedUrl}?${SETTINGS}`);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(cores, 'this test needs a machine with 2 cores or more').toBeGreaterThan(1);
    expect(await shownThreads(page)).toBe(`${Math.min(cores, 8)} threads`);
    // Chromium runs relaxed SIMD, and this x86 CPU has FMA3: the threaded relaxed twin fuses.
    expect(await shownSimd(page)).toBe('FMA');
    const [threaded, threadedToggled] = await resultsAndToggled(page);
    await page.screenshot({ path: `${SHOTS}/threads-isolated.png` });

    const context = await pages.browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
    try {
      const plain = await watchedPage(context, new URL(plainUrl).origin);
      await plain.page.goto(`${plainUrl}?${SETTINGS}`);
      expect(await plain.page.evaluate(() => crossOriginIsolated)).toBe(false);
      expect(await shownThreads(plain.page)).toBe('1 thread');
      expect(await shownSimd(plain.page)).toBe('FMA');
      const [single, singleToggled] = await resultsAndToggled(plain.page);
      expect(threaded.split('\n').length).toBeGreaterThan(100);
      expect(threaded).toBe(single);
      expect(threadedToggled).toBe(singleToggled);
      expect(threadedToggled).not.toBe(threaded);
      expect(plain.consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("runs the evaluation lab's steps on the threads, with the single-threaded page's curves to the last bit", async () => {
    // A trial's steps (one per O) run at the same time on the threaded module: the curves must not move.
    const curves = async (page: Page): Promise<string> => {
      await waitForResults(page);
      await page.getByRole('tab', { name: 'Evaluation' }).click();
      await page.getByRole('group', { name: 'Experiment' }).getByRole('button', { name: 'Fuzzy concepts' }).click();
      const settings = page.getByRole('region', { name: 'Experiment settings' });
      await settings.getByLabel('trials', { exact: true }).fill('2');
      await settings.getByLabel('trials', { exact: true }).press('Enter');
      await settings.getByRole('button', { name: 'Run fuzzy concepts' }).click();
      await page.getByTestId('evaluation-summary').waitFor({ timeout: patient(60_000) });
      return downloadText(page, 'Export curves (CSV)');
    };
    const page = pages.page;
    await page.goto(`${isolatedUrl}?${SETTINGS}`);
    expect(await shownThreads(page)).toMatch(/^\d+ threads$/);
    const threaded = await curves(page);
    const context = await pages.browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
    try {
      const plain = await watchedPage(context, new URL(plainUrl).origin);
      await plain.page.goto(`${plainUrl}?${SETTINGS}`);
      expect(await shownThreads(plain.page)).toBe('1 thread');
      const single = await curves(plain.page);
      expect(threaded.trim().split('\n').length).toBe(1 + 2 * 9); // gpp and lpe at O = 2, 4, …, 512
      expect(threaded).toBe(single);
      expect(plain.consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('falls back to the plain SIMD twin where the relaxed one is missing, with the same numbers to rounding', async () => {
    const csvNumbers = (csv: string) =>
      csv
        .trim()
        .split('\n')
        .map((line) => line.split(','));
    const page = pages.page;
    await page.goto(`${isolatedUrl}?${SETTINGS}`);
    expect(await shownSimd(page)).toBe('FMA');
    const [fused] = await resultsAndToggled(page);
    const context = await pages.browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
    try {
      const fallback = await watchedPage(context, new URL(plainSimdUrl).origin);
      const warnings: string[] = [];
      fallback.page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      await fallback.page.goto(`${plainSimdUrl}?${SETTINGS}`);
      expect(await shownSimd(fallback.page)).toBe('SIMD');
      expect(await shownThreads(fallback.page)).toMatch(/^\d+ threads$/);
      const [plain] = await resultsAndToggled(fallback.page);
      expect(warnings.some((w) => w.includes('relaxed-SIMD module did not load'))).toBe(true);
      const a = csvNumbers(fused),
        b = csvNumbers(plain);
      expect(a.length).toBeGreaterThan(100);
      expect(b.length).toBe(a.length);
      let largest = 0;
      a.forEach((row, i) =>
        row.forEach((cell, j) => {
          const x = Number(cell),
            y = Number(b[i][j]);
          if (cell === '' || Number.isNaN(x)) expect(b[i][j]).toBe(cell);
          else largest = Math.max(largest, Math.abs(x - y));
        }),
      );
      expect(largest).toBeLessThan(1e-9);
      expect(fallback.consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('runs on one thread inside an iframe of a page that is not isolated', async () => {
    const page = pages.page;
    await page.goto(parentUrl);
    const frame = page.frameLocator('iframe');
    await frame.getByTestId('run-summary').waitFor({ timeout: patient(60_000) });
    const inner = page.frames().find((f) => f.url().startsWith(isolatedUrl))!;
    expect(await inner.evaluate(() => crossOriginIsolated)).toBe(false);
    expect(await shownThreads(inner)).toBe('1 thread');
    expect(await shownSimd(inner)).toBe('FMA');
    await waitForResults(inner);
    expect(await inner.locator('table.results tbody tr').count()).toBeGreaterThan(10);
  });

  it('loads data from another site into an isolated page when the host answers with CORS', async () => {
    const page = pages.page;
    await page.goto(`${wideUrl}?data=${dataUrl}/web/public/demo/digits/embeddings.npy`);
    await page
      .getByRole('dialog', { name: 'Load data from another site?' })
      .getByRole('button', { name: 'Load data' })
      .click();
    await waitForResults(page);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    expect(await page.locator('.dataset-name').textContent()).toBe('embeddings.npy');
    expect(await shownThreads(page)).toMatch(/^\d+ threads$/);
  });
});
