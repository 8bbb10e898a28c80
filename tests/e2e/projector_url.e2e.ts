// Data by URL and upload as a Projector user meets them, in Chromium (issue 24, items 1, 2, 4, 5, 7;
// issue 23, item 6). Two servers share one folder (a copy of the app with a Projector export beside it):
// one answers a missing file with a real 404, the other with index.html as `npm start` (vite preview)
// does. Checked: a missing sprite or metadata file leaves the tensor loading with a note naming what is
// missing; a missing file served as the app's page is "not found", not "holds 1,270 bytes"; a config
// link naming an embedding it lacks says so in the dialog; javascript:/file: data URLs are refused before
// any host is asked about; a config uploaded with two of its tensors asks which; a link to uploaded data
// waits for the files, keeps its address, and opens on them; a file of 0 rows is refused naming it.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { decodeLink, encodeLink } from '../../web/src/app/share_link.ts';
import { DEFAULT_SESSION } from '../../web/src/common/state/session.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { browserPerFile, patient, slow, waitForResults } from './browser.ts';
import { serveStatic } from './static_server.ts';
import { npyBytes } from '../web/fixtures.ts';

const baseUrl = inject('baseUrl');
const DEMO = 'web/public/demo/digits';

// The Projector export: the digits as a float32 tensor with a two-column metadata TSV; its sprite sheet
// and one metadata file are named by the config but absent; a third embedding's tensor is absent too.
const npy = parseNpy(readFileSync(`${DEMO}/embeddings.npy`), 'embeddings.npy');
const [N, D] = npy.shape;
const metadataCsv = readFileSync(`${DEMO}/metadata.csv`, 'utf8')
  .trim()
  .split('\n')
  .map((l) => l.split(','));
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-projector-'));
cpSync('dist/app', dir, { recursive: true });
mkdirSync(join(dir, 'data'));
const tensor = new Uint8Array(Float32Array.from(npy.data as ArrayLike<number>).buffer);
writeFileSync(join(dir, 'data/digits.bytes'), tensor);
writeFileSync(join(dir, 'data/digits_meta.tsv'), metadataCsv.map((r) => `${r[1]}\t${r[2]}`).join('\n') + '\n');
const config = {
  embeddings: [
    {
      tensorName: 'Digits',
      tensorShape: [N, D],
      tensorPath: 'digits.bytes',
      metadataPath: 'digits_meta.tsv',
      sprite: { imagePath: 'digits_sprites.png', singleImageDim: [8, 8] },
    },
    { tensorName: 'NoMeta', tensorShape: [N, D], tensorPath: 'digits.bytes', metadataPath: 'absent_meta.tsv' },
    { tensorName: 'Gone', tensorShape: [N, D], tensorPath: 'gone.bytes' },
  ],
};
writeFileSync(join(dir, 'data/projector_config.json'), JSON.stringify(config));
const real = await serveStatic(dir, '');
const spa = await serveStatic(dir, '', { spaFallback: true });
const servers: Server[] = [real.server, spa.server];
const pages = browserPerFile([new URL(baseUrl).origin, real.url, spa.url]);

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

const alerts = async (page: Page) => (await page.getByRole('alert').allTextContents()).join(' ');
const notices = async (page: Page) => (await page.locator('.messages').allTextContents()).join(' ');
const CONFIG = 'data/projector_config.json';

describe('a Projector config by URL', () => {
  it('loads its tensor when the sprite sheet is missing (a real 404), saying what is missing', async () => {
    const page = pages.page;
    await page.goto(`${real.url}/?config=${CONFIG}&embedding=Digits&concept=even=1`);
    await expect
      .poll(() => notices(page), { timeout: patient(60_000) })
      .toContain(
        `Loaded Digits: digits_sprites.png: could not be downloaded from ${real.url} (HTTP 404 Not Found): no thumbnails.`,
      );
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('Digits');
    expect(await page.locator('select[aria-label="Concept column"]').inputValue()).toBe('even');
  });

  it('loads its tensor when the metadata is missing, saying so', async () => {
    const page = pages.page;
    await page.goto(`${real.url}/?config=${CONFIG}&embedding=NoMeta`);
    await expect
      .poll(() => notices(page), { timeout: patient(60_000) })
      .toContain(
        `Loaded NoMeta: absent_meta.tsv: could not be downloaded from ${real.url} (HTTP 404 Not Found): loaded without its metadata (no columns for a concept).`,
      );
    await expect.poll(() => page.locator('.dataset-name').textContent(), { timeout: patient(60_000) }).toBe('NoMeta');
  });

  it('asks which embedding when the link names one it lacks, and says it was not found', async () => {
    const page = pages.page;
    await page.goto(`${real.url}/?config=${CONFIG}&embedding=Nope`);
    const dialog = page.getByRole('dialog', { name: 'Which embedding?' });
    await dialog.waitFor({ timeout: patient(60_000) });
    expect(await dialog.getByTestId('embedding-missing').textContent()).toBe(
      'projector_config.json has no embedding named “Nope”.',
    );
    // Behind the question nothing claims to be computing: nothing is, until it is answered (issue 36, item 12).
    await page.waitForTimeout(slow(1000));
    expect(await page.locator('#app').textContent()).not.toMatch(/computing/i);
    await dialog.getByRole('button', { name: /^Digits/ }).click();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('Digits');
  });
});

describe("a missing file served as the app's page (npm start)", () => {
  it('is "not found", for data by URL and for a config\'s tensor', async () => {
    const page = pages.page;
    await page.goto(`${spa.url}/?data=data/missing.npy`);
    await expect
      .poll(() => alerts(page), { timeout: patient(60_000) })
      .toContain(
        `missing.npy: not found at ${spa.url}/data/missing.npy: the server answered with a web page (text/html) instead of the file`,
      );
    await waitForResults(page); // the demo, as without the link
    await page.goto(`${spa.url}/?config=${CONFIG}&embedding=Gone`);
    await expect
      .poll(() => alerts(page), { timeout: patient(60_000) })
      .toContain(
        `gone.bytes: not found at ${spa.url}/data/gone.bytes: the server answered with a web page (text/html) instead of the file`,
      );
    expect(await alerts(page)).not.toContain('needs');
  });
});

describe('data URLs that are not HTTP', () => {
  it('are refused before any host is asked about, not blamed on CORS', async () => {
    const page = pages.page;
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd']) {
      await page.goto('about:blank');
      await page.goto(`${baseUrl}?data=${encodeURIComponent(url)}`);
      await expect
        .poll(() => alerts(page), { timeout: patient(30_000) })
        .toContain(
          `This link was not opened: data=${url} is not an http: or https: URL (gpprobe loads data over HTTP only).`,
        );
      await waitForResults(page);
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect(await alerts(page)).not.toContain('CORS');
    }
  });
});

describe('uploads', () => {
  it('of a config with two of its tensors ask which embedding', async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    const twoConfig = {
      embeddings: [
        { tensorName: 'First', tensorShape: [N, D], tensorPath: 'first.bytes' },
        { tensorName: 'Second', tensorShape: [N, D], tensorPath: 'second.bytes', metadataPath: 'second_meta.tsv' },
      ],
    };
    const second = new Uint8Array(Float32Array.from(npy.data as ArrayLike<number>, (v) => -v).buffer);
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles([
      { name: 'projector_config.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(twoConfig)) },
      { name: 'first.bytes', mimeType: 'application/octet-stream', buffer: Buffer.from(tensor) },
      { name: 'second.bytes', mimeType: 'application/octet-stream', buffer: Buffer.from(second) },
      {
        name: 'second_meta.tsv',
        mimeType: 'text/tab-separated-values',
        buffer: readFileSync(join(dir, 'data/digits_meta.tsv')),
      },
    ]);
    const dialog = page.getByRole('dialog', { name: 'Which embedding?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: /^Second/ }).click();
    await waitForResults(page);
    expect(await page.locator('.dataset-name').textContent()).toBe('Second');
    expect(await page.locator('select[aria-label="Concept column"] option').allTextContents()).toEqual([
      'digit',
      'even',
    ]); // the second's own metadata
    expect(await alerts(page)).toBe('');
  });

  it('of 0 rows are refused naming the file; the data and the saved session stay', async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    const before = await page.evaluate(() => localStorage.getItem('gpprobe.session.v1'));
    const name = await page.locator('.dataset-name').textContent();
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles({
      name: 'empty.npy',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(npyBytes('<f4', [0, 768], new Float32Array(0))),
    });
    await expect
      .poll(() => alerts(page))
      .toContain('empty.npy: holds no rows (0 × 768 embeddings): there is nothing to probe');
    expect(await page.locator('.dataset-name').textContent()).toBe(name);
    expect(await page.evaluate(() => localStorage.getItem('gpprobe.session.v1'))).toBe(before);
  });
});

describe('a link to uploaded data', () => {
  it('waits for the files, keeps its address, and opens its session on them', async () => {
    const page = pages.page;
    const files = ['embeddings.npy', 'metadata.csv'].map((name) => ({ name, size: statSync(`${DEMO}/${name}`).size }));
    const hash = `#${encodeLink({
      session: {
        ...DEFAULT_SESSION,
        data: { kind: 'upload', files },
        concept: { column: 'ge5', kind: 'values', positives: ['1'] },
        observations: [3, 17, 40, 41, 250],
        epsilon: 0.3,
        strength: 6,
      },
      drawn: false,
      view: { tab: 'probe', colorBy: 'episteme', selected: 40 },
    })}`;
    await page.goto(baseUrl + hash);
    await expect
      .poll(() => notices(page), { timeout: patient(30_000) })
      .toContain('This session was made with embeddings.npy (');
    await waitForResults(page); // the demo meanwhile
    await page.waitForTimeout(slow(500));
    expect(new URL(page.url()).hash).toBe(hash); // the address bar still holds the link
    await page.locator('input[aria-label="Embeddings files"]').setInputFiles(files.map((f) => `${DEMO}/${f.name}`));
    await expect
      .poll(() => notices(page), { timeout: patient(30_000) })
      .toContain("Opened the link's session on embeddings.npy + metadata.csv.");
    await waitForResults(page);
    expect(await page.getByLabel('epsilon', { exact: true }).inputValue()).toBe('0.3');
    expect(await page.getByLabel('strength', { exact: true }).inputValue()).toBe('6');
    expect(await page.locator('select[aria-label="Concept column"]').inputValue()).toBe('ge5');
    expect(await page.locator('#observations-heading + .row + .hint strong').textContent()).toBe('5');
    expect(await page.locator('.selection-title strong').textContent()).toBe('Row 40');
    await expect.poll(() => decodeLink(new URL(page.url()).hash)?.session.observations).toEqual([3, 17, 40, 41, 250]);
  });
});
