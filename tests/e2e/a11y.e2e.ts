// Accessibility in Chromium, measured by axe-core (from npm, injected into the page): on every tab the
// lab registry declares, at 360, 390, 768, 800, 1024 and 1280 px wide, once its lab has drawn, no serious or critical violation; the page has one
// level-one heading. One page for every width (loaded once, resized: the layout is CSS alone), visiting
// every tab in turn at each width.
// Every test also checks: no console errors, and no request leaves the page's origin.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserPerFile, pagePerBlock, patient, slow } from './browser.ts';
import { openTab, TAB_NAMES } from './tabs.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe's serious and critical violations, as "rule (impact): target — summary" lines. */
async function violations(page: Page): Promise<string[]> {
  // Evaluated by the test driver (a script tag would be refused by the app's CSP, as it should be).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: Document,
            options: object,
          ): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[]; failureSummary: string }[] }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) =>
        v.nodes
          .slice(0, 4)
          .map(
            (n) =>
              `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}`,
          ),
      );
  });
}

describe('accessibility', () => {
  describe('at every width', () => {
    const shared = pagePerBlock(pages, new URL(baseUrl).origin);
    it.each([1280, 1024, 800, 768, 390, 360])(
      'axe finds no serious or critical violation on any tab at %i px',
      async (width) => {
        const { page } = shared;
        await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
        if (page.url() === 'about:blank') await page.goto(baseUrl);
        const found: Record<string, string[]> = {};
        for (const tab of TAB_NAMES) {
          await openTab(page, tab);
          if (tab === 'Out-of-distribution')
            await page.getByTestId('ood-auroc').waitFor({ state: 'visible', timeout: patient(150_000) });
          const h1 = await page.locator('h1').count();
          if (h1 !== 1) found[`${tab} h1`] = [`${h1} level-one headings`];
          const problems = await violations(page);
          if (problems.length) found[tab] = problems;
        }
        expect(found).toEqual({});
      },
    );
  });

  it('at 390 px, the probe settings drawer has no serious or critical violation either', async () => {
    const { page } = pages;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    await page.getByRole('button', { name: '☰ Probe settings' }).click();
    await page.locator('.sidebar.open').waitFor();
    await page.waitForTimeout(slow(300)); // the drawer's slide
    expect(await violations(page)).toEqual([]);
  });

  it('selects queries on the plots by keyboard: arrows move the selection, Enter toggles an observation', async () => {
    const { page } = pages;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    const title = page.locator('.selection-title strong');
    for (const plot of ['map-plot', 'judged-plot', 'alea-plot']) {
      const canvas = page.getByTestId(plot).locator('canvas[role="img"]');
      await canvas.focus();
      expect(await canvas.evaluate((c) => c === document.activeElement)).toBe(true);
      // The help a screen reader reads with the plot.
      expect(await page.locator(`#${await canvas.getAttribute('aria-describedby')}`).textContent()).toContain(
        'Arrow keys',
      );
      const before = await title.textContent();
      let moved = false;
      for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown']) {
        await page.keyboard.press(key);
        if ((await title.textContent()) !== before) {
          moved = true;
          break;
        }
      }
      expect(moved, `${plot}: an arrow key moved the selection from ${before}`).toBe(true);
      // The tooltip follows the selection: it names the selected row.
      const row = Number((await title.textContent())!.replace('Row ', ''));
      expect(await page.locator('.tooltip').first().textContent()).toContain(`row ${row}`);
    }
    // Enter adds the selected query as an observation, and again removes it.
    const toggle = page.locator('.selection-title button');
    const label = await toggle.textContent();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.textContent()).not.toBe(label);
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.textContent()).toBe(label);
  });
});
