// Embed mode and the <gpprobe-probe> element, in Chromium: ?embed=1 in a 600 × 400 frame shows each
// view with every drawn text inside its canvas and nothing to scroll, and its "Open in gpprobe" link
// opens the same probe; embeds never read or write the full app's saved session; the docs page's two
// elements each render, answer with their own events, and change independently; the element works
// from a sub-path.
import { describe, expect, inject, it } from 'vitest';
import { decodeLink } from '../../web/src/app/share_link.ts';
import { browserPerFile, patient, SHOTS, slow, textOutside, waitForResults, watchedPage } from './browser.ts';

const baseUrl = inject('baseUrl');
const origin = new URL(baseUrl).origin;
const pages = browserPerFile(origin, SHOTS, { width: 600, height: 400 });

const SAVED = 'gpprobe.session.v1';

describe('embed mode', () => {
  it('fits 600 × 400: every view, no text outside its canvas, nothing to scroll', async () => {
    const page = pages.page;
    await page.goto(`${baseUrl}?embed=1`);
    await page
      .getByTestId('map-plot')
      .locator('canvas[role="img"]')
      .waitFor({ timeout: patient(60_000) });
    expect(await page.locator('header.top').count()).toBe(0); // no app chrome
    for (const view of ['Map', 'Judged', 'Alea', 'Belief', 'Table']) {
      await page.getByRole('tab', { name: view }).click();
      if (view === 'Table') await page.locator('table.results tbody tr[aria-selected]').first().waitFor();
      else await page.locator('.embed-main canvas[role="img"]').first().waitFor();
      await page.waitForTimeout(slow(300)); // resize observers settle
      expect(await textOutside(page), view).toEqual([]);
      const scroll = await page.evaluate(() => ({
        h: document.documentElement.scrollHeight,
        w: document.documentElement.scrollWidth,
      }));
      expect(scroll, view).toEqual({ h: 400, w: 600 });
      await page.screenshot({ path: `${SHOTS}/embed-600x400-${view.toLowerCase()}.png` });
    }
    const footer = (await page.locator('.embed-controls').boundingBox())!;
    expect(footer.y + footer.height).toBeLessThanOrEqual(400);
  });

  it('keeps its state in its own URL, and its link opens the same probe in the full app', async () => {
    const page = pages.page;
    // The full app's saved session first (at desktop width: below 760 px its settings are a drawer): the
    // embed must neither read nor change it.
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(baseUrl);
    await waitForResults(page);
    await page.getByLabel('epsilon', { exact: true }).fill('3');
    await page.getByLabel('epsilon', { exact: true }).press('Enter');
    await expect
      .poll(() => page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').epsilon, SAVED))
      .toBe(3);
    const saved = await page.evaluate((key) => localStorage.getItem(key), SAVED);
    await page.setViewportSize({ width: 600, height: 400 });

    await page.goto(`${baseUrl}?embed=1&views=judged&concept=even=1&per-class=5`);
    await page
      .getByTestId('judged-plot')
      .locator('canvas[role="img"]')
      .waitFor({ timeout: patient(60_000) });
    expect(await page.getByLabel('epsilon', { exact: true }).inputValue()).toBe('0.1'); // not the saved 3
    await page.getByLabel('strength', { exact: true }).fill('9');
    await page.getByLabel('strength', { exact: true }).press('Enter');
    await expect.poll(() => decodeLink(new URL(page.url()).hash)?.session.strength).toBe(9);
    expect(await page.evaluate((key) => localStorage.getItem(key), SAVED)).toBe(saved);

    const link = await page.getByRole('link', { name: 'Open in gpprobe ↗' }).getAttribute('href');
    const state = decodeLink(new URL(link!).hash)!;
    expect(new URL(link!).search).toBe('');
    expect(state.session).toMatchObject({
      strength: 9,
      concept: { column: 'even', kind: 'values', positives: ['1'] },
      draw: { perClass: 5 },
    });
    expect(state.drawn).toBe(true);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto(link!);
    await waitForResults(page);
    expect(await page.getByLabel('strength', { exact: true }).inputValue()).toBe('9');
    expect(await page.locator('#observations-heading + .row + .hint strong').textContent()).toBe('10');
  });
});

describe('the docs page', () => {
  it('shows two independent elements and an iframe, each element answering with its own numbers', async () => {
    const page = pages.page;
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.goto(baseUrl);
    await waitForResults(page);
    const saved = await page.evaluate((key) => localStorage.getItem(key), SAVED);
    const events: {
      id: string;
      type: string;
      detail: { epsilon?: number; observations?: number[]; row?: number; scores?: unknown };
    }[] = [];
    await page.exposeFunction('recordGpprobeEvent', (e: (typeof events)[number]) => {
      events.push(e);
    });
    await page.addInitScript(() => {
      for (const type of ['gpprobe-results', 'gpprobe-select']) {
        document.addEventListener(type, (e) => {
          const d = (e as CustomEvent).detail;
          (window as unknown as { recordGpprobeEvent(x: unknown): void }).recordGpprobeEvent({
            id: (e.target as HTMLElement).id,
            type,
            detail: {
              epsilon: d.epsilon,
              observations: d.observations,
              row: d.row,
              scores: d.scores ? Object.keys(d.scores) : null,
            },
          });
        });
      }
    });
    await page.goto(`${baseUrl}docs/embed.html`);
    const readout = (id: string) => page.locator(`#${id}-readout`);
    await expect
      .poll(() => readout('closed-loop').textContent(), { timeout: patient(60_000) })
      .toContain('16 observations, ε = 0.1, s = 5');
    await expect
      .poll(() => readout('even').textContent(), { timeout: patient(60_000) })
      .toContain('8 observations, ε = 0.5, s = 5');
    const plain = page.frameLocator('#plain-embed');
    await plain
      .getByTestId('alea-plot')
      .locator('canvas[role="img"]')
      .waitFor({ timeout: patient(60_000) });
    await page.screenshot({ path: `${SHOTS}/docs-embed.png`, fullPage: true });
    const results = (id: string) => events.filter((e) => e.id === id && e.type === 'gpprobe-results');
    expect(results('closed-loop').at(-1)!.detail.scores).toEqual([
      'judgedProbability',
      'episteme',
      'alea',
      'latentMean',
      'latentVariance',
      'knowledge',
      'oodScore',
    ]);

    // A click in the first element selects there and tells only the first element's listeners.
    const selections = (id: string) => events.filter((e) => e.id === id && e.type === 'gpprobe-select');
    const evenSelections = selections('even').length;
    const frame = page.frames().find((f) => f.url().includes('element=gpprobe-1'))!;
    await frame.getByRole('tab', { name: 'Table' }).click();
    const row = frame.locator('table.results tbody tr[aria-selected]').nth(2);
    const clicked = Number(await row.locator('td').first().textContent());
    await row.click();
    await expect
      .poll(() => readout('closed-loop').textContent())
      .toMatch(new RegExp(`^Image ${clicked}: judged probability 0\\.\\d{3}, episteme \\d`));
    expect(selections('closed-loop').at(-1)!.detail.row).toBe(clicked);
    expect(selections('even').length).toBe(evenSelections);
    const evenBefore = await readout('even').textContent();

    // Changing an attribute of the second element updates it in place; the first is untouched.
    const firstResults = results('closed-loop').length;
    await page.locator('#even').evaluate((e) => e.setAttribute('epsilon', '2'));
    await expect.poll(() => readout('even').textContent(), { timeout: patient(30_000) }).toContain('ε = 2');
    expect(await readout('even').textContent()).not.toBe(evenBefore);
    expect(results('closed-loop').length).toBe(firstResults);
    expect(results('even').at(-1)!.detail.epsilon).toBe(2);
    // Neither element touched the full app's saved session.
    expect(await page.evaluate((key) => localStorage.getItem(key), SAVED)).toBe(saved);
    const frames = page.frames().filter((f) => f.url().includes('embed=1'));
    expect(frames.length).toBe(3);
    for (const f of frames) expect(await textOutside(f)).toEqual([]);
  });

  it('works from a sub-path, the element finding the app beside its module', async () => {
    const context = await pages.browser.newContext({ viewport: { width: 1000, height: 900 } });
    try {
      const watched = await watchedPage(context, origin);
      await watched.page.goto(`${inject('subPathUrl')}docs/embed.html`);
      await expect
        .poll(() => watched.page.locator('#closed-loop-readout').textContent(), { timeout: patient(60_000) })
        .toContain('16 observations');
      expect(
        watched.page.frames().some((f) => f.url().startsWith(`${inject('subPathUrl')}index.html?embed=1&element=`)),
      ).toBe(true);
      expect(watched.consoleErrors).toEqual([]);
      expect(watched.foreignRequests).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
