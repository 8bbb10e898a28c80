// Debian's Chromium driven by playwright-core (never a downloaded browser). Every page records its
// console errors and every request that leaves the page's origin; tests assert both lists are empty.
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

/** Where browser tests save screenshots for review. */
export const SHOTS = 'test-results/screenshots';

export interface WatchedPage {
  page: Page;
  consoleErrors: string[];
  foreignRequests: string[];
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** `origins`: the page's own origin, and any other a test names as allowed (a data host). */
export async function watchedPage(context: BrowserContext, origins: string | string[]): Promise<WatchedPage> {
  const allowed = typeof origins === 'string' ? [origins] : origins;
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  context.on('request', (r) => {
    const url = r.url();
    if (!allowed.some((o) => url.startsWith(o)) && !url.startsWith('blob:') && !url.startsWith('data:'))
      foreignRequests.push(url);
  });
  return { page, consoleErrors, foreignRequests };
}

/**
 * Waits until the results shown are those of the session as it is now (the summary is not marked
 * stale: a change whose refit is still debounced or running marks it) and no task is running.
 */
export async function waitForResults(page: Page | Frame): Promise<void> {
  await page.waitForFunction(
    () => {
      const summary = document.querySelector('[data-testid="run-summary"]');
      return summary !== null && !summary.classList.contains('stale') && !document.querySelector('.task-bar');
    },
    undefined,
    { timeout: 60_000 },
  );
}

/** The longest gap between animation frames over `ms` milliseconds: a frozen page shows seconds. */
export function worstFrameGap(page: Page, ms: number): Promise<number> {
  return page.evaluate(
    (duration) =>
      new Promise<number>((resolve) => {
        const start = performance.now();
        let last = start,
          worst = 0;
        const tick = (t: number) => {
          worst = Math.max(worst, t - last);
          last = t;
          if (t - start < duration) requestAnimationFrame(tick);
          else resolve(worst);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

/** The pages of a test file: one browser for the file, a fresh context and watched page per test, and
 * after each test the checks every browser test makes (no console errors, no foreign requests).
 * `origins`: the app's origin and any other the file names as allowed (a function when they are known
 * only once the file's servers listen); the browser and its first context are there for tests that
 * open more pages (`browser`, `context`). */
export function browserPerFile(
  origins: string | string[] | (() => string[]),
  screenshots = SHOTS,
  viewport = { width: 1440, height: 1000 },
): { readonly page: Page; readonly browser: Browser; readonly context: BrowserContext } {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let watched: WatchedPage | undefined;
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ viewport, acceptDownloads: true });
    watched = await watchedPage(context, typeof origins === 'function' ? origins() : origins);
  });
  afterEach(async () => {
    expect(watched?.consoleErrors, 'console errors').toEqual([]);
    expect(watched?.foreignRequests, 'requests that left the origin').toEqual([]);
    await context?.close();
  });
  return {
    get page(): Page {
      if (!watched) throw new Error('no page outside a test');
      return watched.page;
    },
    get browser(): Browser {
      if (!browser) throw new Error('no browser outside a test');
      return browser;
    },
    get context(): BrowserContext {
      if (!context) throw new Error('no context outside a test');
      return context;
    },
  };
}

/** Clicks the button called `name` and returns the text of the file it downloads. */
export async function downloadText(page: Page, name: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return readFileSync(await download.path(), 'utf8');
}

/** Every text box drawn on the shown plot canvases (PlotView's data-text-boxes) that leaves its canvas,
 * as "label: [l, t, r, b] outside w × h", for clipping checks; a shown canvas with no text is listed too. */
export async function textOutside(target: Page | Frame): Promise<string[]> {
  return target.locator('canvas[role="img"]').evaluateAll((canvases) =>
    canvases.flatMap((c) => {
      const boxes = JSON.parse((c as HTMLCanvasElement).dataset.textBoxes ?? '[]') as number[][];
      const w = (c as HTMLCanvasElement).clientWidth,
        h = (c as HTMLCanvasElement).clientHeight;
      if (w === 0) return [];
      if (boxes.length === 0) return [`${c.getAttribute('aria-label')}: no text recorded`];
      return boxes
        .filter(([l, t, r, b]) => l < 0 || t < 0 || r > w || b > h)
        .map((box) => `${c.getAttribute('aria-label')}: [${box.join(', ')}] outside ${w} × ${h}`);
    }),
  );
}
