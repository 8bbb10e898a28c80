// Layout in Chromium at the widths people use (a small phone, a phone, tablets, laptops): on every tab,
// once its lab has drawn, nothing makes the page scroll sideways, and no element sticks out past the
// right edge of the window unless it sits in a box that scrolls on purpose (a wide table). One page per
// width, visiting every tab in turn: the tabs' labs start once and stay started, as for a user.
// Every test also checks: no console errors, and no request leaves the page's origin.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserPerFile } from './browser.ts';
import { openTab, TAB_NAMES } from './tabs.ts';

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
        if (
          (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.overflowX === 'hidden') &&
          p.scrollWidth >= p.clientWidth
        )
          return true;
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
    return out.slice(0, 12);
  });
}

describe('layout', () => {
  it.each([360, 390, 768, 800, 1024, 1280])('nothing overflows sideways at %i px on any tab', async (width) => {
    const { page } = pages;
    await page.setViewportSize({ width, height: 900 });
    await page.goto(baseUrl);
    const found: Record<string, string[]> = {};
    for (const tab of TAB_NAMES) {
      await openTab(page, tab);
      const problems = await overflow(page);
      if (problems.length) found[tab] = problems;
    }
    expect(found).toEqual({});
  });
});
