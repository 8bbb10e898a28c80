// The Compare lab's link, refusals, large sets and cancel in Chromium on the built app (issue 27):
// - a comparison on the bundled layers demo travels in the link: the address bar's link opened in a fresh
//   page runs it again and its exported CSV is the first one's byte for byte; hand-typed compare=
//   parameters open the grid in an embed (views=grid,profile);
// - representations whose row counts differ are refused, naming both files;
// - 12 embeddings × 20,000 × 768 float32 (737 MB, the 12 × 50,000 × 768 scaled to this machine)
//   load in the tab kept float32, and the 10-concept grid on them shows progress and stops on Cancel;
// - screenshots of the lab at 1280 × 800, 800 × 1000 and 390 × 844.
// Every test also checks: no console errors, and no request leaves the page's origin.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { decodeLink } from '../../web/src/app/share_link.ts';
import { browserPerFile, downloadText, patient, SHOTS, waitForResults } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserPerFile(new URL(baseUrl).origin);

/** An .npy file's bytes: float32 rows × cols, C order, values from `value(i, j)`. */
function npyHeader(rows: number, cols: number): Buffer {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${cols}), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1')]);
}

function npyBytes(rows: number, cols: number, value: (i: number, j: number) => number): Buffer {
  const data = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) data[i * cols + j] = value(i, j);
  return Buffer.concat([npyHeader(rows, cols), Buffer.from(data.buffer)]);
}

async function openCompare(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Compare' }).click();
}

describe("the Compare lab's link", () => {
  it('reopens the comparison from the link: the exported table is the same byte for byte', async () => {
    const page = browser.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await openCompare(page);
    await page.getByRole('button', { name: 'Load the digits layers demo' }).click();
    await page.getByTestId('compare-representations').waitFor();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-sentence').waitFor({ timeout: patient(60_000) });
    const first = await downloadText(page, 'Export table (CSV)');
    expect(
      first
        .split('\n')[0]
        .startsWith('embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea'),
    ).toBe(true);
    expect(first.trim().split('\n').length).toBe(5);

    // The address bar's link carries the comparison (once it ran).
    await expect
      .poll(() => decodeLink(new URL(page.url()).hash)?.compare?.run ?? false, { timeout: patient(10_000) })
      .toBe(true);
    const link = page.url();
    const state = decodeLink(new URL(link).hash)!;
    expect(state.compare).toEqual({
      sources: { kind: 'demo' },
      concepts: { kind: 'session' },
      view: 'table',
      shown: 0,
      run: true,
    });
    expect(state.view.tab).toBe('compare');

    for (const [width, height] of [
      [1280, 800],
      [800, 1000],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${SHOTS}/compare-${width}x${height}.png` });
    }

    const again = await browser.context.newPage();
    await again.goto(link);
    await again.getByTestId('compare-sentence').waitFor({ timeout: patient(60_000) });
    expect(await again.getByRole('tab', { name: 'Compare', selected: true }).count()).toBe(1);
    const second = await downloadText(again, 'Export table (CSV)');
    expect(second).toBe(first);
    await again.close();
  });

  it('opens a hand-typed compare= link as an embed: the view the link names first (the profile), then the grid', async () => {
    const page = browser.page;
    await page.setViewportSize({ width: 900, height: 600 });
    await page.goto(
      `${baseUrl}?embed=1&views=grid,profile&demo=digits&compare=layers-demo&compare-concepts=digit&compare-view=profile`,
    );
    await page.getByTestId('compare-embed-profile').waitFor({ timeout: patient(60_000) });
    expect(await page.getByRole('tab', { name: 'Profile', selected: true }).count()).toBe(1);
    await page.getByTestId('compare-profile').waitFor();
    expect(await page.getByTestId('compare-sentence').textContent()).toMatch(/at 99 %/);
    await page.screenshot({ path: `${SHOTS}/compare-embed-profile.png` });
    await page.getByRole('tab', { name: 'Grid' }).click();
    await page.getByTestId('compare-grid').waitFor();
    // Every digit against the 4 layers.
    expect(await page.locator('[data-testid^="compare-cell-"]').count()).toBe(40);
    await page.screenshot({ path: `${SHOTS}/compare-embed-grid.png` });
  });

  it("loads representations by URL (into the link) and a Parquet file's vector columns by upload", async () => {
    const page = browser.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await openCompare(page);
    await page
      .getByTestId('compare-urls')
      .fill('demo/digits_layers/layer_1_hidden.npy demo/digits_layers/layer_3_logits.npy');
    await page.getByRole('button', { name: 'Load URLs' }).click();
    await page.getByTestId('compare-representations').waitFor();
    expect(await page.getByTestId('compare-representations').locator('li').allTextContents()).toEqual([
      'layer_1_hidden.npy · 1,797 × 128 float32',
      'layer_3_logits.npy · 1,797 × 10 float32',
    ]);
    const base = new URL('demo/digits_layers/', baseUrl).href;
    await expect
      .poll(() => decodeLink(new URL(page.url()).hash)?.compare?.sources, { timeout: patient(10_000) })
      .toEqual({ kind: 'urls', urls: [`${base}layer_1_hidden.npy`, `${base}layer_3_logits.npy`] });

    // Two FLOAT list columns of the same 1,797 rows and a text column: two representations, float32.
    const list = (name: string) =>
      [
        { name, repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
        { name: 'element', type: 'FLOAT', repetition_type: 'REQUIRED' },
      ] as const;
    const rows = (cols: number, f: (i: number, j: number) => number) =>
      Array.from({ length: 1797 }, (_, i) => Array.from({ length: cols }, (_, j) => f(i, j)));
    const file = Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'a', data: rows(3, (i, j) => Math.sin(i + j)) },
          { name: 'b', data: rows(5, (i, j) => Math.cos(i * j)) },
          { name: 'note', data: Array.from({ length: 1797 }, (_, i) => `r${i}`) },
        ],
        schema: [
          { name: 'root', num_children: 3 },
          ...list('a'),
          ...list('b'),
          { name: 'note', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
        ],
      }),
    );
    await page
      .getByTestId('compare-files')
      .setInputFiles([{ name: 'two.parquet', mimeType: 'application/octet-stream', buffer: file }]);
    await expect
      .poll(() => page.getByTestId('compare-representations').locator('li').allTextContents())
      .toEqual(['two.parquet/a · 1,797 × 3 float32', 'two.parquet/b · 1,797 × 5 float32']);
    // Uploaded files cannot travel in a link: the link names the file, for the reader to choose it.
    await expect
      .poll(() => decodeLink(new URL(page.url()).hash)?.compare?.sources)
      .toEqual({ kind: 'upload', files: [{ name: 'two.parquet' }] });
  });

  it('carries a comparison on uploaded files: the reader is asked for them, and it compares again', async () => {
    // "Copy link" on an uploaded comparison dropped it: the reader landed on the Probe tab and was
    // never asked for the files (issue 36, item 4).
    const page = browser.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await openCompare(page);
    const DIR = 'web/public/demo/digits_layers';
    const files = [`${DIR}/layer_1_hidden.npy`, `${DIR}/layer_3_logits.npy`];
    await page.getByTestId('compare-files').setInputFiles(files);
    await page.getByTestId('compare-representations').waitFor();
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-sentence').waitFor({ timeout: patient(60_000) });
    const first = await downloadText(page, 'Export table (CSV)');
    await expect
      .poll(() => decodeLink(new URL(page.url()).hash)?.compare, { timeout: patient(10_000) })
      .toEqual({
        sources: { kind: 'upload', files: [{ name: 'layer_1_hidden.npy' }, { name: 'layer_3_logits.npy' }] },
        concepts: { kind: 'session' },
        view: 'table',
        shown: 0,
        run: true,
      });
    const link = page.url();

    const again = await browser.context.newPage();
    await again.goto(link);
    await expect
      .poll(() => again.locator('body').textContent(), { timeout: patient(60_000) })
      .toContain(
        "This link's comparison was made with layer_1_hidden.npy + layer_3_logits.npy, which this browser does not have: choose those files in the Compare tab and it compares them again.",
      );
    expect(await again.getByRole('tab', { name: 'Compare', selected: true }).count()).toBe(1);
    // The address bar keeps the link while it waits (a reload asks again).
    expect(again.url()).toBe(link);
    await again.getByTestId('compare-files').setInputFiles(files);
    await again.getByTestId('compare-sentence').waitFor({ timeout: patient(60_000) });
    expect(await downloadText(again, 'Export table (CSV)')).toBe(first);
    await again.close();

    // Other files chosen instead: the link's comparison is set aside, saying so, and the link follows the page.
    const other = await browser.context.newPage();
    await other.goto(link);
    await other.getByRole('tab', { name: 'Compare', selected: true }).waitFor({ timeout: patient(60_000) });
    await other.getByTestId('compare-files').setInputFiles([files[0]]);
    await expect
      .poll(() => other.locator('body').textContent(), { timeout: patient(30_000) })
      .toContain(
        "The link's comparison waited for layer_1_hidden.npy + layer_3_logits.npy; the Compare tab now holds other representations, so it was set aside.",
      );
    await expect
      .poll(() => decodeLink(new URL(other.url()).hash)?.compare?.sources, { timeout: patient(10_000) })
      .toEqual({ kind: 'upload', files: [{ name: 'layer_1_hidden.npy' }] });
    await other.close();
  });

  it('refuses representations whose row counts differ, naming both files', async () => {
    const page = browser.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await openCompare(page);
    await page.getByTestId('compare-files').setInputFiles([
      {
        name: 'layer_0.npy',
        mimeType: 'application/octet-stream',
        buffer: npyBytes(1797, 4, (i, j) => Math.sin(i + j)),
      },
      { name: 'short.npy', mimeType: 'application/octet-stream', buffer: npyBytes(1796, 4, (i, j) => Math.cos(i * j)) },
    ]);
    await page
      .getByText(
        "short.npy: embedding 'short.npy' has 1,796 rows, embedding 'layer_0.npy' has 1,797 rows; every embedding must hold the same rows",
      )
      .waitFor();
    expect(await page.getByTestId('compare-representations').count()).toBe(0);
  });
});

describe('a large set of representations', () => {
  const K = 12,
    ROWS = 20_000,
    COLS = 768;
  let dir: string;
  const layer = (k: number) => `layer_${String(k).padStart(2, '0')}.npy`;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gpprobe-compare-'));
    // Row i of layer k: a seeded pattern whose class (i % 10 < 5) shows more in the later layers.
    const row = new Float32Array(COLS);
    for (let k = 0; k < K; k++) {
      const fd = openSync(join(dir, layer(k)), 'w');
      writeSync(fd, npyHeader(ROWS, COLS));
      const block = new Float32Array(1000 * COLS);
      for (let start = 0; start < ROWS; start += 1000) {
        for (let r = 0; r < 1000; r++) {
          const i = start + r,
            y = i % 10 < 5 ? 1 : -1;
          for (let j = 0; j < COLS; j++) row[j] = Math.sin(0.37 * i * (j + 1) + k) + (j < 8 ? 0.1 * k * y : 0);
          block.set(row, r * COLS);
        }
        writeSync(fd, Buffer.from(block.buffer));
      }
      closeSync(fd);
    }
    writeFileSync(join(dir, 'meta.csv'), `group\n${Array.from({ length: ROWS }, (_, i) => `g${i % 10}`).join('\n')}\n`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`loads ${K} × ${ROWS.toLocaleString('en-US')} × ${COLS} float32 (${((K * ROWS * COLS * 4) / 1e6).toFixed(0)} MB), and the 10-concept grid shows progress and stops on Cancel`, async () => {
    const page = browser.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    await page
      .locator('input[aria-label="Embeddings files"]')
      .setInputFiles([join(dir, layer(0)), join(dir, 'meta.csv')]);
    await page.waitForFunction(
      () => document.querySelector('.dataset-name')?.textContent === 'layer_00.npy + meta.csv',
      undefined,
      { timeout: patient(120_000) },
    );
    await waitForResults(page);
    await openCompare(page);
    const start = Date.now();
    await page.getByTestId('compare-files').setInputFiles(Array.from({ length: K }, (_, k) => join(dir, layer(k))));
    await page.getByTestId('compare-representations').waitFor({ timeout: patient(300_000) });
    console.info(
      `compare_link.e2e: ${K} × ${ROWS} × ${COLS} float32 read in ${((Date.now() - start) / 1000).toFixed(1)} s (a loaded machine: not a figure)`,
    );
    expect(await page.getByTestId('compare-representations').locator('li').allTextContents()).toEqual(
      Array.from({ length: K }, (_, k) => `${layer(k)} · 20,000 × 768 float32`),
    );

    await page.getByRole('radio', { name: 'every value of' }).check();
    await page.getByLabel('grid column').selectOption('group');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const bar = page.locator('.compare-run .eval-progress');
    await bar.waitFor({ timeout: patient(30_000) });
    // Progress moves: the stage names the representation whose 20 draws of every concept are being probed.
    await expect.poll(() => bar.textContent(), { timeout: patient(60_000) }).toMatch(/layer_0\d\.npy: 20 draws/);
    await page.locator('.compare-run').getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => page.getByTestId('compare-outcome').textContent(), { timeout: patient(30_000) })
      .toMatch(/^Cancelled during layer_\d\d\.npy: 20 draws\./);
    expect(await page.getByTestId('compare-summary').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/compare-cancelled.png` });
  });
});
