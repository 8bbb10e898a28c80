// Explanations in Chromium, as a user meets them:
//  - Classification tab: the 8 × 8 digits 3 vs 8 (web/public/demo/robustness/digits38.csv) uploaded,
//    a digit explained: the certified Δ_γ heat map and LIME's ("LIME (local linear surrogate)") both drawn
//    on the image with their legends, their CSV exported with the header of `gpprobe explain` and one row
//    per pixel whose numbers equal the engine's in Node for the same data, model and settings; the global
//    view; screenshots at 1280 × 800, 800 × 1000 and 390 × 844.
//  - Probe tab: "Which dimensions matter" for the demo's selected query: k rows, each dimension with its
//    certified interval (lower ≤ Δ ≤ upper), equal to the library's for the same probe and query; the
//    honest note; screenshots at the same sizes.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  CLASSIFICATION_DEFAULTS,
  createClassificationEngine,
  createProbeEngine,
  explainProbe,
  rankFeatures,
  type ClassificationEngine,
  type ProbeEngine,
} from '../../web/src/engine/index.ts';
import { browserPerFile, patient, SHOTS, waitForResults } from './browser.ts';
import { digits, gather } from './digits.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let gpcEngine: ClassificationEngine;
let probeEngine: ProbeEngine;
let page: Page;

beforeAll(async () => {
  gpcEngine = await createClassificationEngine();
  probeEngine = await createProbeEngine();
});
beforeEach(() => {
  page = pages.page;
});

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });
const SIZES = [
  [1280, 800],
  [800, 1000],
  [390, 844],
] as const;

/** Share of a canvas's pixels that are neither white nor transparent. A figure is drawn in an effect after
 * its element appears, so tests poll it. */
function inked(testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')!;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let ink = 0;
    for (let i = 0; i < data.length; i += 4)
      if (data[i + 3] > 0 && (data[i] < 240 || data[i + 1] < 240 || data[i + 2] < 240)) ink++;
    return ink / (data.length / 4);
  });
}

async function download(scope: ReturnType<Page['getByTestId']>, testId: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: patient(60_000) }),
    scope.getByTestId(testId).click(),
  ]);
  return readFileSync(await file.path(), 'utf8');
}

const DIGITS = readFileSync('web/public/demo/robustness/digits38.csv', 'utf8').trim().split('\n');
const TRAIN = 200;

describe('explain a digit in the Classification tab', () => {
  it("draws both heat maps with legends and exports the CSV of every pixel with the engine's numbers", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'Classification' }).click();
    await expect
      .poll(() => page.getByTestId('model-A-evidence').textContent(), { timeout: patient(60_000) })
      .toContain('log marginal likelihood');
    await idle();
    const csv = DIGITS.slice(0, TRAIN + 1).join('\n') + '\n';
    await page
      .locator('input[aria-label="Classification CSV file"]')
      .setInputFiles([{ name: 'digits38.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
    const panel = page.getByTestId('explain-panel');
    await expect.poll(() => panel.textContent(), { timeout: patient(60_000) }).toContain('8 × 8 images');
    await idle();
    await panel.getByLabel('explain lime samples').fill('500');
    await panel.getByLabel('explain lime samples').press('Tab');
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    const local = page.getByTestId('explain-local');
    await local.waitFor({ timeout: patient(120_000) });
    await idle();

    // Both maps drawn, each with its legend (drawn under the map) and the panel's legend in words.
    await expect.poll(() => inked('explain-delta-map')).toBeGreaterThan(0.2);
    await expect.poll(() => inked('explain-lime-map')).toBeGreaterThan(0.2);
    expect(await page.getByTestId('explain-lime-map').getAttribute('aria-label')).toBe('LIME (local linear surrogate)');
    expect(await page.getByTestId('explain-local-legend').textContent()).toContain(
      'Red: raising the feature raises p(y = +1)',
    );

    const text = await download(local, 'explain-local-csv');
    const [header, ...rows] = text.trim().split('\n');
    expect(header).toBe(
      'feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,varying_rows',
    );
    expect(rows.length).toBe(64);

    // The engine in Node, same data and model A's settings (Laplace, probit, s2 = 1, l = 1).
    const lines = DIGITS.slice(1, TRAIN + 1).map((l) => l.split(',').map(Number));
    const gpc = gpcEngine.fitClassifier({
      inputs: { data: Float64Array.from(lines.flatMap((x) => x.slice(0, 64))), rows: TRAIN, cols: 64 },
      labels: Float64Array.from(lines, (x) => x[64]),
      method: 'laplace',
      likelihood: 'probit',
      kernel: { signalVariance: 1, lengthScales: Array(64).fill(1) },
    });
    const e = gpc.explain([lines[0].slice(0, 64)], {
      gamma: 0.25,
      validRange: [0, 1],
      limeSamples: 500,
      seed: 0,
      baseline: null,
    });
    gpc.dispose();
    rows.forEach((row, a) => {
      const v = row.split(',').map(Number);
      expect(v[0]).toBe(a);
      expect(v[1]).toBe(e.deltaLower[a]);
      expect(v[2]).toBe(e.delta[a]);
      expect(v[3]).toBe(e.deltaUpper[a]);
      expect(v[4]).toBe(e.lime[a]);
      expect(v[1]).toBeLessThanOrEqual(v[2]);
      expect(v[2]).toBeLessThanOrEqual(v[3]);
    });

    // The global view over M = 5 points: a mean heat map for images.
    await panel.getByLabel('explain global points').fill('5');
    await panel.getByLabel('explain global points').press('Tab');
    await panel.getByRole('button', { name: 'Global view' }).click();
    await page.getByTestId('explain-global').waitFor({ timeout: patient(120_000) });
    await idle();
    await expect.poll(() => inked('explain-global-delta')).toBeGreaterThan(0.2);
    const svg = await download(page.getByTestId('explain-global'), 'explain-global-svg');
    expect(svg.startsWith('<svg')).toBe(true);

    // Pixels constant in the training images are set apart (hatched, out of the colour scale and the
    // ranking) with a sentence on why; one click includes them, and the hatching goes.
    const note = page.getByTestId('explain-global-constant');
    expect(await note.textContent()).toMatch(
      /features? (is|are) constant in the training data .* its Δ measures distance from the data, not evidence\. Hatched/,
    );
    // And the pixels nearly constant in the 200 training images (off their most common value in 1 to 3 of
    // them: fewer than max(2, 2 % of 200)), counted off the file: x8, x16 and x64 in 1 image, x17 and x56 in 2.
    expect(await page.getByTestId('explain-global-nearly-constant').textContent()).toMatch(
      /5 features are nearly constant: off their most common value in just one or fewer than 2 % of the training rows \(in brackets: how many\) — x8 \(1\), x16 \(1\), x17 \(2\), x56 \(2\), x64 \(1\)\./,
    );
    const hatches = (text: string) => (text.match(/<line /g) ?? []).length;
    await note.getByRole('button', { name: 'Include them' }).click();
    expect(await note.textContent()).toContain('They are shown and ranked like the others.');
    const included = await download(page.getByTestId('explain-global'), 'explain-global-svg');
    expect(hatches(included)).toBeLessThan(hatches(svg));
    await note.getByRole('button', { name: 'Set them apart' }).click();

    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await local.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/explain-classification-${width}.png` });
    }
  });
});

describe('explain on 2-D data in the Classification tab', () => {
  it("draws bars with the certified whiskers for a point and the global view as arrows (the paper's Fig. 6)", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'Classification' }).click();
    await expect
      .poll(() => page.getByTestId('model-A-evidence').textContent(), { timeout: patient(60_000) })
      .toContain('log marginal likelihood');
    await idle();
    const panel = page.getByTestId('explain-panel');
    await panel.getByLabel('explain lime samples').fill('300');
    await panel.getByLabel('explain lime samples').press('Tab');
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    await page.getByTestId('explain-local').waitFor({ timeout: patient(120_000) });
    await idle();
    await expect.poll(() => inked('explain-delta-map')).toBeGreaterThan(0.01);
    await expect.poll(() => inked('explain-lime-map')).toBeGreaterThan(0.01);
    const text = await download(page.getByTestId('explain-local'), 'explain-local-csv');
    expect(text.trim().split('\n').length).toBe(3);
    await panel.getByLabel('explain global points').fill('10');
    await panel.getByLabel('explain global points').press('Tab');
    await panel.getByRole('button', { name: 'Global view' }).click();
    await page.getByTestId('explain-global').waitFor({ timeout: patient(120_000) });
    await idle();
    await expect.poll(() => inked('explain-global-delta')).toBeGreaterThan(0.005);
    const svg = await download(page.getByTestId('explain-global'), 'explain-global-svg');
    expect(svg).toContain('>Δ_γ</text>');
    expect(svg).toContain('>LIME</text>');
    await page.getByTestId('explain-global').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/explain-classification-2d-1280.png` });
  });
});

describe('which dimensions matter in the Probe tab', () => {
  it("shows k dimensions with their certified intervals, the library's for the same probe and query", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await waitForResults(page);
    const panel = page.getByTestId('dimensions-panel');
    const button = panel.getByRole('button', { name: /^Explain row \d+$/ });
    const row = Number((await button.textContent())!.match(/\d+/)![0]);
    await panel.getByLabel('explain top k').fill('6');
    await panel.getByLabel('explain top k').press('Tab');
    await panel.getByLabel('explain lime samples').fill('300');
    await panel.getByLabel('explain lime samples').press('Tab');
    await button.click();
    await panel.getByTestId('dimensions-result').waitFor({ timeout: patient(120_000) });

    const shown = await panel.getByTestId('dimensions-row').evaluateAll((rows) =>
      rows.map((r) => ({
        dimension: Number(r.getAttribute('data-dimension')),
        value: r.getAttribute('data-value')!.split(',').map(Number),
      })),
    );
    expect(shown.length).toBe(6);
    for (const s of shown) expect(s.value[0]).toBeLessThanOrEqual(s.value[1]);
    expect(await panel.getByTestId('dimensions-lime-row').count()).toBe(6);
    expect(await panel.getByTestId('dimensions-note').textContent()).toContain('a coordinate of the embedding');

    const demo = digits(probeEngine);
    const probe = probeEngine.fitProbe({
      observations: gather(demo.embeddings, demo.observations),
      labels: Uint8Array.from(demo.observations, (r) => demo.labels[r]),
    });
    const query = demo.embeddings.data.slice(row * demo.embeddings.cols, (row + 1) * demo.embeddings.cols);
    const mean = new Float64Array(demo.embeddings.cols);
    for (const r of demo.observations)
      for (let j = 0; j < mean.length; j++)
        mean[j] += demo.embeddings.data[r * demo.embeddings.cols + j] / demo.observations.length;
    const e = explainProbe(probe, Float64Array.from(query), { gamma: 0.1, limeSamples: 300, seed: 0, baseline: mean });
    probe.dispose();
    const top = rankFeatures(e).slice(0, 6);
    expect(shown.map((s) => s.dimension)).toEqual(top.map((a) => e.features[a]));
    shown.forEach((s, k) => expect(s.value).toEqual([e.deltaLower[top[k]], e.deltaUpper[top[k]]]));

    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await panel.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/explain-probe-${width}.png` });
    }
  });
});

describe('explain one class of the softmax model in the Classification tab', () => {
  it("explains the chosen class of the three blobs with the engine's numbers, and the predicted class by default", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await page.getByRole('tab', { name: 'Classification' }).click();
    const example = page.locator('select[aria-label="Classification example"]');
    await expect
      .poll(() => example.locator('option[value="three-blobs"]').count(), { timeout: patient(60_000) })
      .toBe(1);
    await example.selectOption('three-blobs');
    await expect
      .poll(() => page.getByTestId('model-softmax-evidence').locator('[data-value]').count(), {
        timeout: patient(120_000),
      })
      .toBe(1);
    await idle();
    const panel = page.getByTestId('explain-panel');
    await expect.poll(() => panel.textContent()).toContain('the softmax model');
    await panel.getByLabel('explain lime samples').fill('300');
    await panel.getByLabel('explain lime samples').press('Tab');
    await panel.getByTestId('explain-class').selectOption('2');
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    const local = page.getByTestId('explain-local');
    await local.waitFor({ timeout: patient(120_000) });
    await idle();
    expect(await local.textContent()).toContain('p(class 2)');
    const [header, ...rows] = (await download(local, 'explain-local-csv')).trim().split('\n');
    expect(header).toBe(
      'feature,delta_lower,delta,delta_upper,lime,rank,constant_in_training,nearly_constant_in_training,varying_rows',
    );
    expect(rows.length).toBe(2);

    // The engine in Node: the softmax model at the lab's defaults (s² = 1, one length-scale 1 per feature),
    // class 2's probability at training point 0, the panel's γ and LIME settings.
    const [, ...lines] = readFileSync('web/public/demo/classification/three_blobs.csv', 'utf8').trim().split('\n');
    const data = lines.map((l) => l.split(',').map(Number));
    const gpc = gpcEngine.fitClassifier({
      inputs: { data: Float64Array.from(data.flatMap((x) => x.slice(0, 2))), rows: data.length, cols: 2 },
      labels: Float64Array.from(data, (x) => x[2]),
      likelihood: 'softmax',
      classes: 3,
      kernel: {
        signalVariance: CLASSIFICATION_DEFAULTS.signalVariance,
        lengthScales: [CLASSIFICATION_DEFAULTS.lengthScale, CLASSIFICATION_DEFAULTS.lengthScale],
      },
    });
    const e = gpc.explain([data[0].slice(0, 2)], {
      classIndex: 2,
      gamma: 0.25,
      validRange: null,
      limeSamples: 300,
      seed: 0,
      baseline: Float64Array.from([0, 1], (j) => data.reduce((s, x) => s + x[j], 0) / data.length),
    });
    const predicted = gpc.predict({ data: Float64Array.from(data[0].slice(0, 2)), rows: 1, cols: 2 }).probability;
    gpc.dispose();
    rows.forEach((row, a) => {
      const v = row.split(',').map(Number);
      expect(v[1]).toBe(e.deltaLower[a]);
      expect(v[2]).toBe(e.delta[a]);
      expect(v[3]).toBe(e.deltaUpper[a]);
      expect(v[4]).toBeCloseTo(e.lime[a], 12);
    });

    // Back to the predicted class: the class whose probability is largest at point 0.
    const top = Array.from(predicted).indexOf(Math.max(...predicted));
    await panel.getByTestId('explain-class').selectOption('predicted');
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    await expect.poll(() => local.textContent(), { timeout: patient(120_000) }).toContain(`p(class ${top})`);
  });
});
