// The app's tabs for the browser tests that visit every one (layout, accessibility): their names, from
// the lab registry (a new lab's tab is visited without a change here), and opening one and waiting until
// its lab has drawn what it draws first, with no task left running.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { LAB_IDS, LABS, type LabId } from '../../web/src/labs/index.ts';
import { waitForResults, patient } from './browser.ts';

export type TabName = (typeof LABS)[LabId]['name'];
export const TAB_NAMES: readonly TabName[] = LAB_IDS.map((id) => LABS[id].name);

const idle = (page: Page) =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });

/** Selects the tab and waits for its lab's first results (the probe's run, which the other probe tabs show, the first fits of the
 * regression and classification labs) and for every task to end. */
export async function openTab(page: Page, tab: TabName): Promise<void> {
  await page.getByRole('tab', { name: tab, exact: true }).click();
  if (tab === 'Probe') await waitForResults(page);
  if (tab === 'Regression') {
    await expect
      .poll(() => page.getByTestId('regression-summary').textContent(), { timeout: patient(60_000) })
      .toContain('log marginal likelihood');
  }
  if (tab === 'Classification') {
    for (const side of ['A', 'B']) {
      await expect
        .poll(() => page.getByTestId(`model-${side}-evidence`).textContent(), { timeout: patient(60_000) })
        .toContain('log marginal likelihood');
    }
  }
  await idle(page);
}
