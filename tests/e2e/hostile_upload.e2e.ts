// Hostile files uploaded after good data (issue 9, items 8-10), in Chromium on the built app: the Parquet
// file that hangs hyparquet is read in a parse worker that Cancel stops at once and a time budget stops
// on its own; a .npz that claims 4 GB and a .npy with a shape of -1 are refused with their file named.
// After each, the good data and its results are still there and the engine still answers.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { npyBytes, npzBytes } from '../web/fixtures.ts';
import { browserPerFile, patient, SHOTS, slow, waitForResults } from './browser.ts';
import { uploads } from './formats.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);
let page: Page;
beforeEach(() => {
  page = pages.page;
});

const hang = {
  name: 'bitpacked_hang.parquet',
  mimeType: 'application/octet-stream',
  buffer: readFileSync(new URL('../reference/hostile/bitpacked_hang.parquet', import.meta.url)),
};

/** The claim of a 4 GB member in a 200-byte archive. */
function claimsFourGigabytes(): Buffer {
  const zip = npzBytes({ 'x.npy': npyBytes('<f4', [2, 2], new Float32Array(4)) }).slice();
  const view = new DataView(zip.buffer);
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) === 0x04034b50) view.setUint32(at + 22, 0xffffffff, true);
    if (view.getUint32(at, true) === 0x02014b50) view.setUint32(at + 24, 0xffffffff, true);
  }
  return Buffer.from(zip);
}

/** What the user has loaded and computed: dataset name, run summary, the first rows of the table. */
async function loaded(): Promise<string[]> {
  return [
    (await page.locator('.dataset-name').textContent()) ?? '',
    (await page.getByTestId('run-summary').textContent()) ?? '',
    ...(await page
      .locator('table.results tbody tr')
      .evaluateAll((rows) => rows.slice(0, 5).map((r) => r.textContent ?? ''))),
  ];
}

async function upload(files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  await page.locator('input[aria-label="Embeddings files"]').setInputFiles(files);
}

async function alerts(): Promise<string> {
  return (await page.getByRole('alert').allTextContents()).join(' ');
}

describe('hostile uploads after good data', () => {
  it('cancels the Parquet hang at once, stops it by its time budget, refuses bombs and bad shapes, and keeps the data', async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    await upload(uploads().csv);
    await expect.poll(() => page.locator('.dataset-name').textContent(), { timeout: patient(30_000) }).toBe('data.csv');
    await waitForResults(page);
    const before = await loaded();

    // Cancel: the engine worker is not blocked, so the cancel arrives and the parse worker is ended.
    await upload([hang]);
    const cancel = page.locator('.task-bar').getByRole('button', { name: 'Cancel' });
    await cancel.waitFor({ timeout: patient(30_000) });
    await page.waitForTimeout(slow(500));
    const pressed = Date.now();
    await cancel.click();
    await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: slow(5_000) });
    expect(Date.now() - pressed).toBeLessThan(slow(5_000));
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await loaded()).toEqual(before);

    // Left alone, the budget (10 s for a small file) ends it with an error that names the file.
    await upload([hang]);
    await expect
      .poll(alerts, { timeout: patient(40_000) })
      .toContain(
        'bitpacked_hang.parquet: the parquet reader did not finish within 10 s and was stopped; the file is damaged or built to hang the reader',
      );
    expect(await loaded()).toEqual(before);
    await page.screenshot({ path: `${SHOTS}/hostile-parquet-hang.png` });

    await upload([{ name: 'claim.npz', mimeType: 'application/octet-stream', buffer: claimsFourGigabytes() }]);
    await expect
      .poll(alerts, { timeout: patient(30_000) })
      .toContain("claim.npz: its members declare 4.0 GB uncompressed ('x.npy' 4.0 GB); gpprobe reads at most 1.5 GB");
    await upload([
      {
        name: 'minus.npy',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(npyBytes('<f4', '-1, 3', new Float32Array(3))),
      },
    ]);
    await expect
      .poll(alerts, { timeout: patient(30_000) })
      .toContain(
        "minus.npy: the .npy header's shape (-1, 3) is not a tuple of non-negative integers (dimension 0 is -1)",
      );
    expect(await loaded()).toEqual(before);

    // Three refusals do not stack over the controls (issue 36, item 12): the newest two are shown, the
    // earlier one folds into a line, Show all brings it back, Dismiss all clears them.
    expect(await page.getByRole('alert').count()).toBe(2);
    expect(await page.getByTestId('messages-folded').textContent()).toContain('1 earlier message');
    const box = (await page.getByTestId('messages').boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(0.45 * page.viewportSize()!.height + 1);
    await page.getByTestId('messages-folded').getByRole('button', { name: 'Show all' }).click();
    expect(await alerts()).toContain('bitpacked_hang.parquet: the parquet reader did not finish within 10 s');
    expect(await page.getByRole('alert').count()).toBe(3);
    await page.getByTestId('messages-folded').getByRole('button', { name: 'Dismiss all' }).click();
    expect(await page.getByRole('alert').count()).toBe(0);

    // The engine still works on the kept data: one more observation gives a new run.
    await page.locator('table.results tbody input[aria-label="Observation 2"]').check();
    await expect.poll(async () => (await loaded())[1], { timeout: patient(30_000) }).not.toBe(before[1]);
    expect((await loaded())[0]).toBe(before[0]);
  });
});
