// Debian's Chromium driven by playwright-core (never a downloaded browser). Every page records its
// console errors and every request that leaves the page's origin; tests assert both lists are empty.
import { mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Disposable, type Frame, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';

/**
 * How many times slower than a quiet machine this one runs now. A fixed amount of work (FIXED_WORK
 * steps of integer arithmetic) is timed by the wall clock, and compared with two references: its time on
 * a quiet machine (QUIET_MS, this loop's CPU time on the project's 2-core machine, where it measured
 * 74-77 ms) and this process's own CPU time for it. The first ratio catches a slower CPU; the second a
 * machine busy with other work (the process waits for a core, as the browser does: both compete for the
 * same cores). It is measured when a test file starts and again at every bound (the load changes), the
 * larger kept; at least 1 (a bound never tightens), at most MAX_SLOWNESS (past that no bound means
 * anything). GPPROBE_SLOWNESS=<n> sets it by hand.
 */
const FIXED_WORK = 15_000_000;
const QUIET_MS = 75;
const MAX_SLOWNESS = 10;

function measureSlowness(): number {
  const set = Number(process.env.GPPROBE_SLOWNESS);
  if (Number.isFinite(set) && set >= 1) return set;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  let x = 0;
  for (let i = 0; i < FIXED_WORK; i++) x = (x * 31 + i) % 1_000_003;
  const wallMs = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  const cpuMs = Math.max((used.user + used.system) / 1000, 1e-3);
  if (x < 0) return 1; // (x is used, so the loop is not optimised away)
  return Math.min(MAX_SLOWNESS, Math.max(1, wallMs / Math.min(QUIET_MS, cpuMs)));
}

/** This machine's slowness when the test file started (see measureSlowness). */
export const SLOWNESS = measureSlowness();

/**
 * A time bound (ms) of a browser test, as it holds on a quiet machine, scaled by the machine's slowness
 * (measured now, and at the file's start: the larger): a frame gap, a cancel, a deadline hold on a machine
 * 4× slower and stay what they were on a quiet one (issue 35, item 3).
 */
export function slow(ms: number): number {
  return Math.round(ms * Math.max(SLOWNESS, measureSlowness()));
}

/** How many times slower than a quiet machine every wait of a browser test still holds, at least. */
export const PATIENCE = 4;

/**
 * A wait's bound (ms) — how long a test waits for something that will happen (a result shown, a task done,
 * a download) before it fails — as it sufficed on a quiet machine, scaled by PATIENCE or by this machine's
 * slowness when the file started, the larger. Unlike slow(), which bounds how long something may take (an
 * assertion), this only says when to give up waiting: a longer wait never lets a wrong result pass, so it is
 * generous and costs no measurement (issue 35, item 3).
 */
export function patient(ms: number): number {
  return Math.round(ms * Math.max(PATIENCE, SLOWNESS));
}

// Every test file of tests/e2e imports this module: its tests' and hooks' own time limits (the config's 180 s
// and 120 s), the default of expect.poll (1 s) and Playwright's default wait (30 s, set on each context
// below) hold at PATIENCE times slower too.
vi.setConfig({
  testTimeout: patient(180_000),
  hookTimeout: patient(120_000),
  expect: { poll: { timeout: patient(1000), interval: 50 } },
});

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

/** Records the page's console errors and uncaught exceptions in `errors`. */
function watchConsole(page: Page, errors: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
}

/** Records what a test adds to `target` that outlives a navigation (init scripts, exposed functions and
 * bindings) in `into`, for browserPerFile to remove before the next test. */
function keepDisposables(target: Page | BrowserContext, into: Disposable[]): void {
  const t = target as unknown as Record<string, (...args: unknown[]) => Promise<Disposable>>;
  for (const name of ['addInitScript', 'exposeFunction', 'exposeBinding']) {
    const original = t[name].bind(target);
    t[name] = async (...args: unknown[]) => {
      const d = await original(...args);
      into.push(d);
      return d;
    };
  }
}

/** `origins`: the page's own origin, and any other a test names as allowed (a data host). */
export async function watchedPage(context: BrowserContext, origins: string | string[]): Promise<WatchedPage> {
  const allowed = typeof origins === 'string' ? [origins] : origins;
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  watchConsole(page, consoleErrors);
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
    { timeout: patient(60_000) },
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

/** The pages of a test file: one browser for the file, and for each test a page as a fresh context gives
 * it: no storage of any origin the file has visited (local storage, IndexedDB, Cache Storage, file
 * systems, cookies), no routes, init scripts, exposed functions or listeners of the last test, no other
 * page, the file's viewport, at about:blank. The file's one context and page are reset so before each
 * test rather than a context opened per test: Chromium opens a window for each context, with its
 * omnibox's WebUI renderer, about 2 s of CPU of the 4 s an app load cost. After each test, the checks
 * every browser test makes (no console errors, no foreign requests).
 * `origins`: the app's origin and any other the file names as allowed (a function when they are known
 * only once the file's servers listen); the browser and context are there for tests that open more pages
 * (`browser`, `context`). */
export function browserPerFile(
  origins: string | string[] | (() => string[]),
  screenshots = SHOTS,
  viewport = { width: 1440, height: 1000 },
): { readonly page: Page; readonly browser: Browser; readonly context: BrowserContext } {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let watched: WatchedPage | undefined;
  const visited = new Set<string>();
  const disposables: Disposable[] = [];
  const open = async () => {
    context = await browser!.newContext({ viewport, acceptDownloads: true });
    context.setDefaultTimeout(patient(30_000));
    context.setDefaultNavigationTimeout(patient(30_000));
    context.on('request', (r) => {
      const url = r.url();
      if (url.startsWith('http:') || url.startsWith('https:')) visited.add(new URL(url).origin);
    });
    watched = await watchedPage(context, typeof origins === 'function' ? origins() : origins);
    for (const target of [context, watched.page]) keepDisposables(target, disposables);
  };
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    if (!context) return open();
    // The file's page, as a new context would give it.
    const page = watched!.page;
    for (const other of context.pages()) if (other !== page) await other.close();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    for (const d of disposables.splice(0)) await d.dispose();
    page.removeAllListeners();
    watchConsole(page, watched!.consoleErrors);
    await page.goto('about:blank');
    await page.setViewportSize(viewport);
    const cdp = await context.newCDPSession(page);
    for (const origin of visited) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.detach();
    visited.clear();
    await context.clearCookies();
    await context.clearPermissions();
    watched!.consoleErrors.splice(0);
    watched!.foreignRequests.splice(0);
  });
  afterEach(async () => {
    expect(watched?.consoleErrors, 'console errors').toEqual([]);
    expect(watched?.foreignRequests, 'requests that left the origin').toEqual([]);
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

/**
 * One page for the tests of a describe block that need no fresh load of their own (the same app at several
 * window widths: its layout is CSS alone, so a resize lays the page out as a load at that width does): made
 * in the file's browser (`pages`, from browserPerFile) before the block's first test, checked after each
 * test as browserPerFile checks its pages (no console errors, no foreign requests; the lists are emptied
 * for the next test), closed after the block's last. The demo's fits and every lab's first work are then
 * done once for the block rather than once per test.
 */
export function pagePerBlock(
  pages: { readonly browser: Browser },
  origins: string | string[],
  viewport = { width: 1440, height: 1000 },
): { readonly page: Page } {
  let context: BrowserContext | undefined;
  let watched: WatchedPage | undefined;
  beforeAll(async () => {
    context = await pages.browser.newContext({ viewport, acceptDownloads: true });
    context.setDefaultTimeout(patient(30_000));
    context.setDefaultNavigationTimeout(patient(30_000));
    watched = await watchedPage(context, origins);
  });
  afterEach(() => {
    const errors = watched?.consoleErrors.splice(0);
    const foreign = watched?.foreignRequests.splice(0);
    expect(errors, 'console errors').toEqual([]);
    expect(foreign, 'requests that left the origin').toEqual([]);
  });
  afterAll(async () => {
    await context?.close();
  });
  return {
    get page(): Page {
      if (!watched) throw new Error('no page outside the block');
      return watched.page;
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
