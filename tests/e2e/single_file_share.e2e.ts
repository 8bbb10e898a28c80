// The app's Share → Download as one file (docs/embed.md, "One file"): the page it writes, opened from
// file:// with every network request aborted, opens on the app's session and exports the app's results
// CSV byte for byte, for the bundled demo and for files uploaded from disk; from the Compare tab too.
// Needs dist/app with its one-file template (scripts/make/build_single.mjs after vite build).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserPerFile, downloadText, waitForResults, patient } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile([new URL(baseUrl).origin, 'file://']);
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-share-one-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Clicks "Download as one file"; the path of the page written. */
async function downloadOneFile(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: patient(60_000) }),
    page.getByRole('button', { name: 'Download as one file', exact: true }).click(),
  ]);
  const path = join(dir, name);
  await download.saveAs(path);
  return path;
}

/** Opens the page from file:// in a new tab of the context, every request but file:, data:, blob: aborted. */
async function openOffline(page: Page, path: string, tab?: string): Promise<{ page: Page; aborted: string[] }> {
  const offline = await page.context().newPage();
  const aborted: string[] = [];
  await offline.route('**/*', (route) => {
    const at = route.request().url();
    if (/^(file|data|blob):/.test(at)) return route.continue();
    aborted.push(at);
    return route.abort();
  });
  await offline.goto(pathToFileURL(path).href);
  // The page opens on the tab it was written from, once its data are open.
  if (tab) {
    await offline
      .getByText('1,797 rows × 64 dimensions')
      .first()
      .waitFor({ timeout: patient(60_000) });
    await expect.poll(() => offline.getByRole('tab', { selected: true }).textContent()).toBe('Compare');
    await offline.getByRole('tab', { name: tab, exact: true }).click();
  }
  await waitForResults(offline).catch(async (error: unknown) => {
    await offline.screenshot({ path: join('test-results', 'one-file-offline.png') });
    throw new Error(`${String(error)}; the page said: ${(await offline.locator('body').innerText()).slice(0, 2000)}`);
  });
  return { page: offline, aborted };
}

describe('Share → Download as one file', () => {
  it("writes the demo and the session; the page's CSV is the app's byte for byte", async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await page.getByLabel('epsilon', { exact: true }).fill('0.3');
    await page.getByLabel('epsilon', { exact: true }).press('Enter');
    await waitForResults(page);
    await page.locator('table.results tbody input[aria-label^="Observation"]:not(:checked)').first().check();
    await waitForResults(page);
    // Written after a click, the page computes the probe fresh, as a link does: the app refits first.
    const path = await downloadOneFile(page, 'demo.html');
    await waitForResults(page);
    const appCsv = await downloadText(page, 'Export results (CSV)');
    const size = readFileSync(path).length;
    const { page: offline, aborted } = await openOffline(page, path);
    expect(await offline.getByLabel('epsilon', { exact: true }).inputValue()).toBe('0.3');
    expect(await downloadText(offline, 'Export results (CSV)')).toBe(appCsv);
    expect(aborted).toEqual([]);
    // The page's own Download as one file writes it again, from its own elements and data.
    const again = await downloadOneFile(offline, 'again.html');
    const second = await openOffline(page, again);
    expect(await downloadText(second.page, 'Export results (CSV)')).toBe(appCsv);
    expect(second.aborted).toEqual([]);
    console.log(
      `one file of the digits demo (1,797 × 64 float32, metadata, OOD set): ${size.toLocaleString('en-US')} bytes`,
    );
  });

  it('carries uploaded files, from the Compare tab too', async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await page
      .locator('input[aria-label="Embeddings files"]')
      .setInputFiles(['web/public/demo/digits/embeddings.npy', 'web/public/demo/digits/metadata.csv']);
    await page
      .getByText('Loaded embeddings.npy + metadata.csv')
      .first()
      .waitFor({ timeout: patient(60_000) });
    await waitForResults(page);
    await page.getByRole('tab', { name: 'Compare', exact: true }).click();
    // The draw's scores came by rank-one updates; writing the page refits them, as a link does.
    const path = await downloadOneFile(page, 'upload.html');
    await page.getByRole('tab', { name: 'Probe', exact: true }).click();
    await waitForResults(page);
    await expect(page.getByTestId('run-summary').textContent()).resolves.toMatch(/fitted/);
    const appCsv = await downloadText(page, 'Export results (CSV)');
    const { page: offline, aborted } = await openOffline(page, path, 'Probe');
    expect(await downloadText(offline, 'Export results (CSV)')).toBe(appCsv);
    expect(aborted).toEqual([]);
  });
});
