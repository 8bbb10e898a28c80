// The labs' fields as a user meets them (issue 36), in Chromium: what a field does with text it cannot
// use — refused with a message naming the field and what it accepts, what was typed kept on screen, the
// setting and the observations kept, and a certificate computed before marked as no longer answering the
// fields. One browser for the file. Every test also checks: no console errors, and no request leaves the
// page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserPerFile, patient } from './browser.ts';
import { openTab } from './tabs.ts';
import { npyBytes } from '../web/fixtures.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let page: Page;
beforeEach(() => {
  page = pages.page;
});

async function type(label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Tab');
}

const observationCount = async () =>
  Number((await page.getByTestId('observation-summary').locator('strong').textContent()) ?? NaN);

describe('fields that used to fail silently', () => {
  it('Probe: ε and s refuse abc, -1 and 0 with a message; Per class refuses abc and -3 and keeps the observations', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    for (const [label, heading] of [
      ['epsilon', 'ε'],
      ['strength', 's (observation strength)'],
    ] as const) {
      const field = page.getByLabel(label, { exact: true });
      const before = await field.getAttribute('data-value');
      for (const typed of ['abc', '-1', '0']) {
        await type(label, typed);
        expect(await field.inputValue()).toBe(typed); // what was typed stays, marked
        expect(await field.getAttribute('aria-invalid')).toBe('true');
        const problem = page.getByTestId('field-problem');
        await expect.poll(() => problem.textContent()).toContain(`'${typed}' is not accepted`);
        expect(await problem.textContent()).toContain(heading);
        expect(await problem.textContent()).toContain('greater than 0');
        expect(await field.getAttribute('data-value')).toBe(before); // the setting is unchanged
      }
      await type(label, '0.5');
      expect(await field.getAttribute('data-value')).toBe('0.5');
      expect(await page.getByTestId('field-problem').count()).toBe(0);
    }

    const kept = await observationCount();
    expect(kept).toBeGreaterThan(0);
    for (const typed of ['abc', '-3', '2.5']) {
      await type('Observations per class', typed);
      const problem = page.getByTestId('observations-problem');
      await expect.poll(() => problem.textContent()).toContain(`'${typed}' is not accepted`);
      expect(await problem.textContent()).toContain('whole number from 0 to 100000');
      expect(await problem.textContent()).toContain('Per class');
      expect(await page.getByLabel('Observations per class').getAttribute('aria-invalid')).toBe('true');
      expect(await observationCount()).toBe(kept); // not one observation removed
    }
  });

  it('Classification: γ = abc is named as typed, and the certificate shown before is marked as not for these fields', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    await type('x* x1', '0.5');
    await type('x* x2', '-0.25');
    await type('gamma', '0.3');
    const card = page.getByTestId('robustness-A');
    await page.getByRole('button', { name: 'Certify', exact: true }).click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: patient(120_000) }).toBe('done');
    expect(await card.getAttribute('data-stale')).toBeNull();

    await type('gamma', 'abc');
    expect(await page.getByLabel('gamma', { exact: true }).inputValue()).toBe('abc');
    const problems = await page.getByTestId('robustness-problems').textContent();
    expect(problems).toContain("gamma: 'abc' is not a number");
    expect(problems).toContain('give a number ≥ 0');
    expect(problems).not.toContain('empty');
    expect(await card.getAttribute('data-stale')).toBe('true');
    expect(await card.getByTestId('robustness-mismatch').textContent()).toContain('for γ = 0.3');

    // A new γ typed: the old certificate says it is for 0.3.
    await type('gamma', '0.4');
    expect(await page.getByTestId('robustness-problems').count()).toBe(0);
    expect(await card.getByTestId('robustness-mismatch').textContent()).toContain('γ is now 0.4');
    // Back at 0.3: it answers the fields again.
    await type('gamma', '0.3');
    expect(await card.getAttribute('data-stale')).toBeNull();
  });
});

describe('Compare: files that are not representations of the rows', () => {
  const DIR = 'web/public/demo/digits_layers';
  const LAYERS = ['layer_0_pixels.npy', 'layer_1_hidden.npy', 'layer_2_hidden.npy', 'layer_3_logits.npy'];
  const listed = () => page.getByTestId('compare-representations').locator('li').allTextContents();

  it('sets metadata.csv aside (never compared), says whose metadata defines the concepts, and keeps the set when a short .npy comes alone or with it', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByTestId('compare-files').setInputFiles([...LAYERS, 'metadata.csv'].map((f) => `${DIR}/${f}`));
    await page.getByTestId('compare-representations').waitFor();
    const layers = await listed();
    expect(layers.map((t) => t.split(' · ')[0])).toEqual(LAYERS); // no metadata.csv among them
    expect(await page.getByTestId('compare-set-aside').textContent()).toContain(
      'metadata.csv was set aside as metadata, not compared',
    );
    const source = await page.getByTestId('compare-concept-source').textContent();
    expect(source).toContain('The concepts come from the metadata of');
    expect(source).toContain('not from metadata.csv');

    // 1,796 rows (the dataset has 1,797): refused alone and with the layers; the four layers stay.
    const short = {
      name: 'short.npy',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(npyBytes('<f4', [1796, 2], new Float32Array(1796 * 2).fill(0.5))),
    };
    const layerFiles = LAYERS.map((f) => ({
      name: f,
      mimeType: 'application/octet-stream',
      buffer: readFileSync(`${DIR}/${f}`),
    }));
    for (const files of [[short], [...layerFiles, short]]) {
      await page.getByTestId('compare-files').setInputFiles(files);
      await expect
        .poll(() => page.getByRole('alert').allTextContents())
        .toContainEqual(expect.stringContaining('short.npy: has 1,796 rows'));
      await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(60_000) });
      expect(await listed()).toEqual(layers);
    }

    // "Open" from the table, far down the page, lands on the Probe tab at its top.
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    const open = page.getByTestId('compare-open').first();
    await open.waitFor({ timeout: patient(120_000) });
    await open.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await open.click();
    await expect
      .poll(() => page.getByRole('tab', { name: 'Probe', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe("Explain's γ slider", () => {
  it('marks the maps as at the old γ when the slider moves, and recomputes them at the new γ on request', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    const panel = page.getByTestId('explain-panel');
    await panel.getByLabel('explain lime samples').fill('200');
    await panel.getByLabel('explain lime samples').press('Tab');
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    const local = page.getByTestId('explain-local');
    await local.waitFor({ timeout: patient(120_000) });
    await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(120_000) });
    expect(await local.textContent()).toContain('Training row 0');
    expect(await local.getAttribute('data-stale')).toBeNull();

    await panel.getByLabel('explain gamma slider').fill('0.5');
    const stale = page.getByTestId('explain-local-stale');
    await expect.poll(() => stale.textContent()).toContain("not the slider's γ = 0.5000");
    expect(await local.getAttribute('data-stale')).toBe('true');
    await stale.getByRole('button', { name: /^Recompute at γ = 0\.5/ }).click();
    await expect.poll(() => local.getAttribute('data-stale'), { timeout: patient(120_000) }).toBeNull();
    expect(await page.getByTestId('explain-local-stale').count()).toBe(0);
  });
});

describe('multi-class naming', () => {
  it('names the bundled digits example’s classes 3, 5 and 8 (the digits), not 0, 1, 2', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'Classification' }).click();
    const example = page.locator('select[aria-label="Classification example"]');
    await expect
      .poll(() => example.locator('option[value="digits-358"]').count(), { timeout: patient(60_000) })
      .toBe(1);
    await example.selectOption('digits-358');
    const options = page.getByTestId('explain-class').locator('option');
    await expect
      .poll(() => options.allTextContents(), { timeout: patient(60_000) })
      .toEqual(['the predicted class (over M points: the one predicted most)', 'class 3', 'class 5', 'class 8']);
  });
});
