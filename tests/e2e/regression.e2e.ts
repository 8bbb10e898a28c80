// The Regression tab in Chromium, as a user meets it: the lecture's example fitted (the learned values
// equal the engine's for the same data and settings), a typed and a learned value crossing to the core
// and back bit for bit, both bands drawn and told apart, a bad CSV
// refused while the data stay, the paper's Fig. 3 experiment, and n = 2,000 points fitted with
// progress, without freezing the page, cancelled, and exported with 10,000 grid predictions.
// Every test also checks: no console errors, and no request leaves the page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createRegressionEngine, type RegressionEngine } from '../../web/src/engine/index.ts';
import { formatMeasure } from '../../web/src/common/ui/format.ts';
import { browserPerFile, patient, SHOTS, slow, worstFrameGap } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let engine: RegressionEngine;
let page: Page;

beforeAll(async () => {
  engine = await createRegressionEngine();
});
beforeEach(() => {
  page = pages.page;
});

/** Opens the Regression tab and waits for the first fit of the lecture's example. */
async function openLab(): Promise<void> {
  await page.goto(baseUrl);
  await page.getByRole('tab', { name: 'Regression' }).click();
  await expect
    .poll(() => page.getByTestId('regression-summary').textContent(), { timeout: patient(60_000) })
    .toContain('log marginal likelihood');
}

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });
const summaryValue = (label: string) =>
  page.getByTestId('fit-summary').locator(`dt:text-is("${label}") + dd`).textContent();

async function download(button: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: patient(60_000) }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFileSync(await file.path(), 'utf8');
}

describe('the regression lab', () => {
  it("learns the lecture example's hyperparameters and draws both bands, labelled", async () => {
    await openLab();
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect
      .poll(() => page.getByTestId('fit-summary').textContent(), { timeout: patient(60_000) })
      .toContain('L-BFGS iterations');
    await idle();
    // The engine, on the same data with the same settings (variance held at 1 as in the lecture).
    const data = engine.example('lecture', 1);
    const gp = engine.optimize({
      x: data.x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'constant.value': 1, 'rbf.length_scale': 1 } },
      noiseVariance: 0.1,
      fixed: ['constant.value'],
      restarts: 2,
      seed: 0,
    });
    const s = gp.state;
    gp.dispose();
    expect(await summaryValue('rbf.length_scale')).toBe(formatMeasure(s.kernel.parameters['rbf.length_scale']));
    expect(await summaryValue('noise_variance')).toBe(
      `${formatMeasure(s.noiseVariance)} (sd ${formatMeasure(Math.sqrt(s.noiseVariance))})`,
    );
    expect(await page.getByTestId('log-marginal-likelihood').textContent()).toBe(s.logMarginalLikelihood.toFixed(4));
    // The lecture's values within sampling variation: l ~ 0.55, noise sd ~ 0.25.
    expect(Math.abs(s.kernel.parameters['rbf.length_scale'] - 0.55)).toBeLessThan(0.08);
    expect(Math.abs(Math.sqrt(s.noiseVariance) - 0.25)).toBeLessThan(0.06);

    const svg = await download('Export Posterior: mean, bands and samples as SVG');
    const latent = Array.from(svg.matchAll(/<path d="(M[^"]*)Z" fill="#0b6e99" fill-opacity="0.35"\/>/g), (m) => m[1]);
    const total = Array.from(svg.matchAll(/<path d="(M[^"]*)Z" fill="#9ec5e8" fill-opacity="0.45"\/>/g), (m) => m[1]);
    expect(latent).toHaveLength(1);
    expect(total).toHaveLength(1);
    expect(latent.join('').split('L')).toHaveLength(800); // 400 grid points up, 400 back
    expect(svg).toContain('95% of f (epistemic)');
    expect(svg).toContain('95% of y (epistemic + noise)');
    expect(await page.getByTestId('regression-knowledge-plot').locator('canvas[role="img"]').count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/regression-lecture.png`, fullPage: true });
  });

  it('sends a value with 17 significant digits to the core bit for bit, and brings a learned one back bit for bit', async () => {
    await openLab();
    const typed = '0.12345678901234567';
    const field = page.getByLabel('rbf.length_scale', { exact: true });
    await field.fill(typed);
    await field.press('Tab');
    // The fit summary shows what the core reports (data-value: the double's exact shortest text).
    const reported = () =>
      page.getByTestId('fit-summary').locator('dt:text-is("rbf.length_scale") + dd').getAttribute('data-value');
    await expect.poll(reported, { timeout: patient(30_000) }).toBe(String(Number(typed)));
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect
      .poll(() => page.getByTestId('fit-summary').textContent(), { timeout: patient(60_000) })
      .toContain('L-BFGS iterations');
    await idle();
    const data = engine.example('lecture', 1);
    const gp = engine.optimize({
      x: data.x,
      y: data.y,
      kernel: { name: 'rbf', parameters: { 'rbf.length_scale': Number(typed) } },
      noiseVariance: 0.1,
      fixed: ['constant.value'],
      restarts: 2,
      seed: 0,
    });
    const learned = String(gp.state.kernel.parameters['rbf.length_scale']);
    gp.dispose();
    expect(await reported()).toBe(learned);
    expect(await field.getAttribute('data-value')).toBe(learned); // the field now holds the learned double
    // The optimiser ran on a second instance of the engine worker (cancel ends only that one).
    expect(page.workers()).toHaveLength(2);
  });

  it("shows a bad CSV's error and keeps the loaded data", async () => {
    await openLab();
    const before = await page.getByTestId('regression-data-summary').textContent();
    const likelihood = await page.getByTestId('log-marginal-likelihood').textContent();
    await page
      .locator('input[aria-label="Regression CSV file"]')
      .setInputFiles([{ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('t,y\n1,2\n2,oops\n3,4\n') }]);
    await expect
      .poll(() => page.getByTestId('regression-data-error').textContent())
      .toBe("broken.csv: column 'y' (y) row 2 is 'oops', not a number");
    expect(await page.getByRole('alert').textContent()).toContain(
      "broken.csv: column 'y' (y) row 2 is 'oops', not a number",
    );
    expect(await page.getByTestId('regression-data-summary').textContent()).toBe(before);
    expect(await page.getByTestId('log-marginal-likelihood').textContent()).toBe(likelihood);
    await page
      .locator('input[aria-label="Regression CSV file"]')
      .setInputFiles([{ name: 'picture.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]);
    await expect
      .poll(() => page.getByTestId('regression-data-error').textContent())
      .toBe('picture.png: unsupported file type (.png); the regression lab reads .csv, .tsv or .txt');
    expect(await page.getByTestId('regression-data-summary').textContent()).toBe(before);
    await page.screenshot({ path: `${SHOTS}/regression-bad-csv.png` });
  });

  it("reproduces the paper's Fig. 3 experiment: the knowledge gate raises the AUC", async () => {
    await openLab();
    await page.getByRole('button', { name: /Reproduce Fig. 3/ }).click();
    await page.getByTestId('auc-table').waitFor({ timeout: patient(120_000) });
    await page.getByTestId('roc-plot').locator('canvas[role="img"]').waitFor();
    const e = engine.anomalyExperiment({ seed: 0, statusRho: 0.5, theta: 3 });
    const rows = await page.getByTestId('auc-table').locator('tbody tr').allTextContents();
    expect(rows).toHaveLength(1 + e.gated.length);
    expect(rows[0]).toBe(`all (no gate)${e.ungated.points}${e.ungated.positives}${e.ungated.auc.toFixed(3)}`);
    e.gated.forEach((c, k) => expect(rows[k + 1]).toBe(`G ≥ ${c.rho}${c.points}${c.positives}${c.auc.toFixed(3)}`));
    expect(e.gated.at(-1)!.auc).toBeGreaterThan(e.ungated.auc);
    const counts = [0, 0, 0];
    e.statuses.forEach((s) => {
      counts[s] += 1;
    });
    await expect
      .poll(() => page.getByTestId('status-counts').textContent())
      .toContain(`Fig. 3 test points: ${counts[0]} normal · ${counts[1]} anomaly · ${counts[2]} unknown`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/regression-fig3.png`, fullPage: true });
  });

  it('fits 2,000 points with progress and a live page, cancels a fit, and exports 10,000 grid predictions', async () => {
    await openLab();
    // The lecture's function on [0, 20] with a fixed LCG's noise (as scripts/bench/bench_regression.mjs).
    let state = 12345;
    const noise = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648 - 0.5) * Math.sqrt(12) * 0.25;
    const lines = Array.from({ length: 2000 }, (_, i) => {
      const x = (20 * i) / 2000;
      return `${x},${Math.sin(x) + 0.5 * Math.sin(4 * x) + noise()}`;
    });
    await page
      .locator('input[aria-label="Regression CSV file"]')
      .setInputFiles([{ name: 'big.csv', mimeType: 'text/csv', buffer: Buffer.from(`x,y\n${lines.join('\n')}\n`) }]);
    await expect
      .poll(() => page.getByTestId('regression-summary').textContent(), { timeout: patient(60_000) })
      .toMatch(/^big\.csv: 2,000 points · log marginal likelihood/);
    await page.getByLabel('restarts', { exact: true }).fill('0');
    await page.getByLabel('restarts', { exact: true }).press('Tab');

    const start = Date.now();
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    const bar = page.getByLabel('Fitting hyperparameters progress');
    await expect
      .poll(async () => Number((await bar.getAttribute('value')) ?? 0), { timeout: patient(60_000) })
      .toBeGreaterThan(0);
    const early = Number(await bar.getAttribute('value'));
    expect(await worstFrameGap(page, 1500)).toBeLessThan(slow(250));
    await expect
      .poll(async () => Number((await bar.getAttribute('value')) ?? 1), { timeout: patient(60_000) })
      .toBeGreaterThan(early);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/regression-2000-progress.png` });
    await idle();
    const seconds = (Date.now() - start) / 1000;
    expect(await page.getByTestId('fit-summary').textContent()).toMatch(/Learned in \d+ L-BFGS iterations over 1 run/);
    const lengthScale = await summaryValue('rbf.length_scale');
    expect(Number(lengthScale)).toBeGreaterThan(0.4);
    expect(Number(lengthScale)).toBeLessThan(0.8);
    console.log(
      `n = 2,000: hyperparameters learned in the browser in ${seconds.toFixed(1)} s (length-scale ${lengthScale})`,
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/regression-2000.png`, fullPage: true });

    // A longer fit (three runs, from a length-scale of 5), cancelled mid-way: the worker is replaced and
    // what was shown stays.
    const learned = await page.getByTestId('log-marginal-likelihood').textContent();
    await page.getByLabel('restarts', { exact: true }).fill('2');
    await page.getByLabel('restarts', { exact: true }).press('Tab');
    await page.getByLabel('rbf.length_scale', { exact: true }).fill('5');
    await page.getByLabel('rbf.length_scale', { exact: true }).press('Tab');
    await expect
      .poll(() => page.getByTestId('log-marginal-likelihood').textContent(), { timeout: patient(30_000) })
      .not.toBe(learned);
    const likelihood = await page.getByTestId('log-marginal-likelihood').textContent();
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect.poll(() => page.locator('.task-bar').textContent(), { timeout: patient(30_000) }).toContain('L-BFGS');
    const cancelled = Date.now();
    await page.locator('.task-bar').getByRole('button', { name: 'Cancel' }).click();
    await idle();
    expect(Date.now() - cancelled).toBeLessThan(slow(2000));
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Hyperparameter fit cancelled' }).count())
      .toBe(1);
    expect(await page.getByTestId('log-marginal-likelihood').textContent()).toBe(likelihood);

    // The fresh worker answers: predictions on 10,000 grid points (blocked in the core) for the export.
    const csv = (await download('Export predictions (CSV)')).trim().split('\n');
    expect(csv[0]).toBe(
      'set,x,y,mean,latent_variance,observation_variance,latent_lower,latent_upper,observation_lower,observation_upper,knowledge,anomaly_score,status',
    );
    expect(csv.filter((l) => l.startsWith('data,'))).toHaveLength(2000);
    expect(csv.filter((l) => l.startsWith('grid,'))).toHaveLength(10_000);
    expect(csv[1].split(',').at(-1)).toMatch(/^(normal|anomaly|unknown)$/);
  });
});
