// The Classification lab's MAP priors in Chromium: on the first example (two-blobs, seed 1), priors typed
// into the Hyperparameters panel make "Fit hyperparameters" learn the native CLI's MAP values (tests/
// reference/classification/priors.json: `gpprobe gpc --optimize --signal-variance-prior P
// --length-scale-prior Q`, to 1e-9 relative) with the log prior reported, where maximum likelihood
// learns others; a prior in a bad form is refused by the field's name and the previous fit stays.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserPerFile, patient } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);
let page: Page;
beforeEach(() => {
  page = pages.page;
});

interface CliFit {
  signal_variance: number;
  length_scales: number[];
  log_marginal_likelihood: number;
  log_prior: number;
}
const reference = JSON.parse(
  readFileSync(new URL('../reference/classification/priors.json', import.meta.url), 'utf8'),
) as Record<'laplace' | 'ep', { fit: CliFit }> & { signal_variance_prior: string; length_scale_prior: string };

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });

async function learnedCells(side: 'A' | 'B'): Promise<number[][]> {
  const cells = await page
    .getByTestId(`learned-${side}`)
    .locator('td')
    .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value') ?? ''));
  return cells.map((c) => c.split(',').map(Number));
}

function expectRelative(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected) / Math.abs(expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(
    1e-9,
  );
}

async function fit(): Promise<void> {
  await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
  await idle();
}

describe("the classification lab's hyperparameter priors", () => {
  it("learns the CLI's MAP values with the priors typed in, and refuses a bad prior by its field", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'Classification' }).click();
    await expect
      .poll(() => page.getByTestId('model-B-evidence').textContent(), { timeout: patient(60_000) })
      .toContain('log marginal likelihood');
    await idle();
    const restarts = page.getByLabel('restarts', { exact: true });
    await restarts.fill('0');
    await restarts.press('Tab');
    const signalPrior = page.getByLabel('prior on log signal variance', { exact: true });
    const lengthPrior = page.getByLabel('prior on log length-scales', { exact: true });
    expect(await signalPrior.inputValue()).toBe('none');
    expect(await lengthPrior.inputValue()).toBe('none');

    await signalPrior.fill(reference.signal_variance_prior);
    await signalPrior.press('Tab');
    await lengthPrior.fill(reference.length_scale_prior);
    await lengthPrior.press('Tab');
    await fit();
    await page.getByTestId('classification-learned').waitFor({ timeout: patient(60_000) });
    expect(await page.getByTestId('classification-fit-kind').textContent()).toContain('MAP');
    for (const [side, method] of [
      ['A', 'laplace'],
      ['B', 'ep'],
    ] as const) {
      const cli = reference[method].fit;
      const [[signal], lengths, [lml], [logPrior]] = await learnedCells(side);
      expectRelative(signal, cli.signal_variance, `${side} signal variance`);
      cli.length_scales.forEach((l, j) => expectRelative(lengths[j], l, `${side} length-scale ${j}`));
      expectRelative(lml, cli.log_marginal_likelihood, `${side} log marginal likelihood`);
      expectRelative(logPrior, cli.log_prior, `${side} log prior`);
      // The model's fields now hold the MAP values.
      expect(
        Number(await page.getByLabel(`Model ${side} signal variance`, { exact: true }).getAttribute('data-value')),
      ).toBe(signal);
    }
    const map = await learnedCells('A');

    // A prior in a bad form: refused by the field's name; the MAP fit stays.
    await signalPrior.fill('lognormal:0');
    await signalPrior.press('Tab');
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect
      .poll(() => page.getByTestId('classification-prior-error').textContent(), { timeout: patient(60_000) })
      .toContain('prior on log signal variance must be none, lognormal:MU,SIGMA or student-t:MU,SIGMA,NU');
    await idle();
    expect(await learnedCells('A')).toEqual(map);

    // Back to none: maximum likelihood from the MAP values learns other ones, with no log prior column.
    await signalPrior.fill('none');
    await signalPrior.press('Tab');
    await lengthPrior.fill('none');
    await lengthPrior.press('Tab');
    await fit();
    expect(await page.getByTestId('classification-prior-error').count()).toBe(0);
    expect(await page.getByTestId('classification-fit-kind').textContent()).toContain('Maximum likelihood');
    const ml = await learnedCells('A');
    expect(ml).toHaveLength(3);
    expect(Math.abs(ml[0][0] - map[0][0]) / map[0][0]).toBeGreaterThan(0.05);
  });
});
