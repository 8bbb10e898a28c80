// Layout in Chromium at the widths people use (a small phone, a phone, tablets, laptops): on every tab,
// once its lab has drawn, nothing makes the page scroll sideways, and no element sticks out past the
// right edge of the window unless it sits in a box that scrolls on purpose (a wide table). One page for
// every width (loaded once and resized, widest first: the layout is CSS alone, and a page that was wide and
// is made narrow is the harder case for what sticks out), visiting every tab in turn at each width (every
// tab the lab registry declares): the tabs' labs start once and stay started, as for a user. A box that scrolls on purpose is one that scrolls (overflow-x auto or
// scroll, never a hidden overflow that cuts columns off), and while it hides columns it shows a cue.
// Every test also checks: no console errors, and no request leaves the page's origin.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserPerFile, pagePerBlock, patient, slow } from './browser.ts';
import { openTab, TAB_NAMES, type TabName } from './tabs.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

/** What sticks out sideways: the page's own scroll width past the window, and every visible element
 * whose right edge passes the window's (by more than half a pixel) outside a box that scrolls sideways. */
function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const scroller = document.scrollingElement!;
    if (scroller.scrollWidth > width) out.push(`the page scrolls sideways: ${scroller.scrollWidth} > ${width}`);
    const scrollsSideways = (e: Element | null): boolean => {
      for (let p = e?.parentElement ?? null; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && p.scrollWidth >= p.clientWidth) return true;
      }
      return false;
    };
    for (const e of Array.from(document.querySelectorAll('body *'))) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const s = getComputedStyle(e);
      if (s.visibility === 'hidden' || s.position === 'fixed') continue;
      if (r.right > width + 0.5 && !scrollsSideways(e)) {
        const name = `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
        out.push(`${name} "${(e.textContent ?? '').trim().slice(0, 30)}" ends at ${Math.round(r.right)} > ${width}`);
      }
    }
    // A table cut by a box that does not scroll, and a box that scrolls with no cue that it does.
    for (const t of Array.from(document.querySelectorAll('table'))) {
      const r = t.getBoundingClientRect();
      if (r.width === 0) continue;
      for (let p = t.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (s.overflowX === 'visible') continue;
        const box = p.getBoundingClientRect();
        if (s.overflowX === 'hidden' || s.overflowX === 'clip') {
          if (r.right > box.right + 0.5) out.push(`table "${(t.textContent ?? '').trim().slice(0, 30)}" is cut off`);
        } else if (p.scrollWidth > p.clientWidth + 1) {
          const cue = p.parentElement?.querySelector('[data-testid="scroll-cue"]');
          if (!cue || cue.getBoundingClientRect().height === 0)
            out.push(`table "${(t.textContent ?? '').trim().slice(0, 30)}" scrolls with no cue`);
        }
        break;
      }
    }
    return out.slice(0, 12);
  });
}

/** Opens the tab and waits for what its lab draws after a moment (the OOD comparison starts 150 ms after
 * the tab shows: its table is what overflowed). */
async function drawn(page: Page, tab: TabName): Promise<void> {
  await openTab(page, tab);
  if (tab === 'Out-of-distribution')
    await page.getByTestId('ood-auroc').waitFor({ state: 'visible', timeout: patient(150_000) });
  await page.waitForTimeout(slow(300));
  await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });
}

describe('layout', () => {
  const shared = pagePerBlock(pages, new URL(baseUrl).origin);
  it.each([1280, 1024, 800, 768, 390, 360])('nothing overflows sideways at %i px on any tab', async (width) => {
    const { page } = shared;
    await page.setViewportSize({ width, height: 900 });
    if (page.url() === 'about:blank') await page.goto(baseUrl);
    const found: Record<string, string[]> = {};
    for (const tab of TAB_NAMES) {
      await drawn(page, tab);
      const problems = await overflow(page);
      if (problems.length) found[tab] = problems;
    }
    expect(found).toEqual({});
  });
});
