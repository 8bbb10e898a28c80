// The labs as a first-time user meets them, in Chromium: what a form does with input it cannot use
// (refused with the reason, never certified), fields and model agreeing after a cancelled fit, long work's
// progress and Cancel in view, hyperparameters reset on new data, a fit at a bound said, the anomaly
// controls beside the plots they recolour, the evaluation lab's explanations, and the maps' legends.
// Every test also checks: no console errors, and no request leaves the page's origin.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserPerFile } from './browser.ts';
import { openTab } from './tabs.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let page: Page;
beforeEach(() => {
  page = pages.page;
});

const idle = () => page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: 150_000 });

async function fill(label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Tab');
}

/** The error messages shown, newest last. */
const alerts = () => page.getByRole('alert').allTextContents();

describe('robustness inputs (Classification tab)', () => {
  it('refuses an empty or negative gamma, a bad sweep list and no moving coordinate, saying why, and never certifies them', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    const card = page.getByTestId('robustness-A');
    await fill('x* x1', '0.5');
    await fill('x* x2', '-0.25');
    const certify = page.getByRole('button', { name: 'Certify', exact: true });
    for (const typed of ['', '-1']) {
      await fill('gamma', typed);
      expect(await page.getByLabel('gamma', { exact: true }).inputValue()).toBe(typed);  // what was typed stays
      expect(await page.getByLabel('gamma', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await certify.click();
      await expect.poll(alerts).toContainEqual(expect.stringContaining(typed === '' ? 'Not certified: gamma is empty' : 'Not certified: gamma: -1 is below 0'));
      expect(await card.count()).toBe(0);  // no certificate, not even a running one
      expect(await page.getByTestId('robustness-problems').textContent()).toContain('gamma');
    }
    // A gamma the user gives is certified with that gamma.
    await fill('gamma', '0.3');
    expect(await page.getByTestId('robustness-problems').count()).toBe(0);
    await certify.click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    expect(await card.getByTestId('robustness-root').textContent()).toContain('x* ± 0.3000');

    // The sweep's list: an entry that is not a number is named, the list typed stays, the sweep is refused.
    await fill('sweep gammas', '0, abc, 0.5');
    expect(await page.getByLabel('sweep gammas').inputValue()).toBe('0, abc, 0.5');
    await page.getByRole('button', { name: 'Run sweep' }).click();
    await expect.poll(alerts).toContainEqual(expect.stringContaining("No sweep: sweep gammas: 'abc' is not a number ≥ 0"));
    expect(await page.getByTestId('sweep-A').count()).toBe(0);
    await fill('sweep gammas', '0, 0.5');

    // Unticking every moving coordinate: both stay unticked, the form says why nothing can be certified.
    await page.getByLabel('x1 moves').uncheck();
    await page.getByLabel('x2 moves').uncheck();
    expect(await page.getByLabel('x1 moves').isChecked()).toBe(false);
    expect(await page.getByLabel('x2 moves').isChecked()).toBe(false);
    expect(await page.getByTestId('robustness-problems').textContent()).toContain('no moving coordinate is ticked');
    const before = await card.getByTestId('robustness-root').textContent();
    await certify.click();
    await expect.poll(alerts).toContainEqual(expect.stringContaining('Not certified: no moving coordinate is ticked'));
    expect(await card.getByTestId('robustness-root').textContent()).toBe(before);
    await page.getByLabel('x2 moves').check();
    expect(await page.getByTestId('robustness-problems').count()).toBe(0);
    await idle();
  });

  it('refuses an empty gamma in the Probe tab\'s "Certify within γ" too', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    const panel = page.getByTestId('certify-panel');
    await panel.getByLabel('certify gamma').fill('');
    await panel.getByLabel('certify gamma').press('Tab');
    await panel.getByRole('button', { name: /^Certify row/ }).click();
    await expect.poll(alerts).toContainEqual(expect.stringContaining('Not certified: certify gamma is empty'));
    expect(await panel.getByTestId('certify-result').count()).toBe(0);
  });
});
