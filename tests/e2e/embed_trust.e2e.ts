// The embed when its host page or its data go wrong, in Chromium. (1) Malformed config messages from
// the embedding page (allowOrigins 5, null or missing; issue 23, item 8) are dropped with a notice, never
// an uncaught TypeError, and the embed goes on. (2) A <gpprobe-probe> on a docs page of another origin
// whose config lives on that origin (the app's CSP refuses it; issue 24, item 3) fires "gpprobe-error"
// with the reason and the docs section on where data may live, shows "not loaded", and never fires the
// results of another dataset (the digits demo used to answer in its place).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { browserPerFile, patient, slow } from './browser.ts';
import { serveStatic } from './static_server.ts';

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;

// The app again with CORS for the docs page's origin (a module script from another origin needs it),
// and the docs page on an origin of its own.
const corsOrigins = new Set<string>();
const hostDir = mkdtempSync(join(tmpdir(), 'gpprobe-embed-host-'));
const servers: Server[] = [];
const app = await serveStatic('dist/app', '', { corsOrigins });
const host = await serveStatic(hostDir, '');
servers.push(app.server, host.server);
corsOrigins.add(host.url);
const pages = browserPerFile([origin, app.url, host.url]);

afterAll(() => {
  for (const s of servers) s.close();
  rmSync(hostDir, { recursive: true, force: true });
});

describe('malformed messages from the embedding page', () => {
  it('are dropped with a notice, never an uncaught error; the embed goes on', async () => {
    const page = pages.page;
    // A host page on the app's origin that answers each iframe's hello with a malformed config.
    await page.route(`${baseUrl}trust-host.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>host</title>
      <script>
        const bad = { e1: { allowOrigins: 5 }, e2: { allowOrigins: null }, e3: {} };
        addEventListener('message', (event) => {
          const m = event.data;
          if (m && m.gpprobe === 'hello' && bad[m.element]) event.source.postMessage({ gpprobe: 'config', element: m.element, ...bad[m.element] }, '*');
        });
      </script>
      ${['e1', 'e2', 'e3'].map((e) => `<iframe id="${e}" style="width:600px;height:400px" src="index.html?embed=1&element=${e}&demo=digits&views=table"></iframe>`).join('')}`,
      }),
    );
    await page.goto(`${baseUrl}trust-host.html`);
    for (const e of ['e1', 'e2', 'e3']) {
      const frame = page.frameLocator(`#${e}`);
      await expect
        .poll(() => frame.getByRole('alert').allTextContents(), { timeout: patient(30_000) })
        .toContain(
          'The embedding page sent a malformed "config" message (see docs/embed.md, "Messages"); it was ignored.×',
        );
      // Without a config the app goes on after its wait, on its own origin's data.
      await frame
        .locator('table.results tbody tr[aria-selected]')
        .first()
        .waitFor({ timeout: patient(60_000) });
    }
  });
});

describe('a set message with a value out of its range', () => {
  it('is refused with a message; the embed keeps its state and goes on posting results', async () => {
    // On main an out-of-range ε was applied, and the embed stopped posting results (issue 40, item 4).
    const page = pages.page;
    await page.route(`${baseUrl}set-host.html`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><title>host</title><link rel="icon" href="data:,">
      <script>
        window.results = [];
        addEventListener('message', (event) => {
          const m = event.data;
          if (m && m.gpprobe === 'hello') event.source.postMessage({ gpprobe: 'config', element: 'e1', allowOrigins: [] }, '*');
          if (m && m.gpprobe === 'results') window.results.push(m.detail.epsilon);
        });
        window.set = (params) => document.getElementById('e1').contentWindow.postMessage({ gpprobe: 'set', element: 'e1', params }, '*');
      </script>
      <iframe id="e1" style="width:600px;height:400px" src="index.html?embed=1&element=e1&demo=digits&views=table"></iframe>`,
      }),
    );
    await page.goto(`${baseUrl}set-host.html`);
    const posted = () => page.evaluate(() => (window as unknown as { results: number[] }).results);
    await expect.poll(async () => (await posted()).length, { timeout: patient(60_000) }).toBeGreaterThan(0);
    const before = (await posted()).at(-1)!;
    await page.evaluate(() => (window as unknown as { set: (p: string) => void }).set('epsilon=1e-301'));
    const frame = page.frameLocator('#e1');
    await expect
      .poll(() => frame.getByRole('alert').allTextContents(), { timeout: patient(30_000) })
      .toEqual(['This change was not applied: epsilon=1e-301 is not a number from 1e-300 to 1e300.×']);
    // Its state is the old one, and a valid change is applied and posted as before.
    await page.evaluate(() => (window as unknown as { set: (p: string) => void }).set('epsilon=0.3'));
    await expect.poll(async () => (await posted()).at(-1), { timeout: patient(60_000) }).toBe(0.3);
    expect(await posted()).not.toContain(1e-301);
    expect((await posted()).filter((e) => e !== before && e !== 0.3)).toEqual([]);
  });
});

describe('an element whose data failed', () => {
  it("fires gpprobe-error with the reason and where data may live, and never another dataset's results", async () => {
    const page = pages.page;
    writeFileSync(
      join(hostDir, 'docs.html'),
      `<!doctype html><title>docs</title><link rel="icon" href="data:,">
      <script type="module" src="${app.url}/embed.js"></script>
      <gpprobe-probe id="probe" config="site/my_config.json" concept="label=1" views="map,judged" height="400"></gpprobe-probe>
      <script>
        window.events = [];
        for (const type of ['gpprobe-results', 'gpprobe-select', 'gpprobe-error']) {
          document.addEventListener(type, (e) => window.events.push({ type, detail: e.detail }));
        }
      </script>`,
    );
    await page.goto(`${host.url}/docs.html`);
    type Recorded = { type: string; detail: { message?: string; help?: string; rows?: number } };
    const events = () => page.evaluate(() => (window as unknown as { events: Recorded[] }).events);
    await expect.poll(async () => (await events()).length, { timeout: patient(30_000) }).toBeGreaterThan(0);
    const [error] = await events();
    expect(error.type).toBe('gpprobe-error');
    expect(error.detail.message).toContain(
      `my_config.json: this page's Content-Security-Policy does not allow loading data from ${host.url}; whoever hosts gpprobe must add ${host.url} to connect-src`,
    );
    expect(error.detail.help).toContain('docs/embed.md, "Data by URL: where it may live"');
    const frame = page.frameLocator('gpprobe-probe iframe');
    expect(await frame.getByTestId('embed-failure').textContent()).toContain(
      "Not loaded: my_config.json: this page's Content-Security-Policy",
    );
    expect(await frame.locator('.embed-title').textContent()).toBe('not loaded');
    // Nothing else is loaded in its place: no results, ever (the demo used to fire 1,797 rows).
    await page.waitForTimeout(slow(5000));
    expect((await events()).map((e) => e.type)).toEqual(['gpprobe-error']);
  });
});
