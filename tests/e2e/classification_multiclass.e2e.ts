// The Classification tab with C classes in Chromium: the three-blobs example is fitted by the softmax
// model (chosen by itself: three classes), its log marginal likelihood the engine's in Node on the same
// file; the predicted-class map is drawn in three distinct hues (its canvas pixels read back), labelled
// (a legend naming the three classes and the decision boundary, in the SVG export too), with one map per
// class, the entropy and the latent variance; hover shows all three probabilities; a click certifies
// there: every class's interval arrives (each containing its probability at x*) with the safety verdict;
// a long certificate is cancelled and the page says so; the digits 3/5/8 show as 8 × 8 thumbnails with
// their three probabilities. Screenshots at 1280 × 800, 800 × 1000 and 390 × 844. Every test also checks:
// no console errors, and no request leaves the page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createClassificationEngine, type ClassificationEngine } from '../../web/src/engine/index.ts';
import { formatMeasure } from '../../web/src/common/ui/format.ts';
import { browserPerFile, patient, SHOTS, slow } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let engine: ClassificationEngine;
let page: Page;

beforeAll(async () => {
  engine = await createClassificationEngine();
});
beforeEach(() => {
  page = pages.page;
});

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });
const evidence = () => page.getByTestId('model-softmax-evidence');

async function openExample(name: string, viewport = { width: 1280, height: 800 }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.goto(baseUrl);
  await page.getByRole('tab', { name: 'Classification' }).click();
  await page.locator('select[aria-label="Classification example"]').waitFor();
  await expect
    .poll(() => page.locator('select[aria-label="Classification example"] option[value="three-blobs"]').count(), {
      timeout: patient(60_000),
    })
    .toBe(1);
  await page.locator('select[aria-label="Classification example"]').selectOption(name);
  await expect.poll(() => evidence().locator('[data-value]').count(), { timeout: patient(120_000) }).toBe(1);
  await idle();
}

function blobs() {
  const [, ...lines] = readFileSync('web/public/demo/classification/three_blobs.csv', 'utf8').trim().split('\n');
  const rows = lines.map((l) => l.split(',').map(Number));
  return {
    inputs: { data: Float64Array.from(rows.flatMap((r) => r.slice(0, 2))), rows: rows.length, cols: 2 },
    labels: Float64Array.from(rows, (r) => r[2]),
  };
}

/** The hue (degrees) of an RGB colour, or null when it is too pale or grey to have one. */
function hue(r: number, g: number, b: number): number | null {
  const max = Math.max(r, g, b),
    min = Math.min(r, g, b);
  if (max - min < 40) return null;
  const d = max - min;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

describe('the classification lab with three classes', () => {
  it('fits the three blobs by softmax, draws the maps in three hues and labels them, hover shows all three probabilities', async () => {
    await openExample('three-blobs');
    await expect.poll(() => page.locator('select[aria-label="Classification model"]').inputValue()).toBe('softmax');
    expect(await page.locator('select[aria-label="Classification model"] option[value="binary"]').isDisabled()).toBe(
      true,
    );
    expect(await page.getByTestId('classification-family').textContent()).toContain('The labels have 3 classes');
    const { inputs, labels } = blobs();
    const gpc = engine.fitClassifier({
      inputs,
      labels,
      likelihood: 'softmax',
      kernel: { signalVariance: 1, lengthScales: [1, 1] },
    });
    const lml = gpc.state.logMarginalLikelihood;
    const predicted = gpc.predict(inputs).probability;
    gpc.dispose();
    const shown = Number(await evidence().locator('[data-value]').getAttribute('data-value'));
    expect(Math.abs(shown - lml)).toBeLessThanOrEqual(1e-12 * Math.abs(lml));

    const map = page.getByRole('img', { name: 'Softmax (Laplace): predicted class' });
    await map.waitFor();
    for (const c of [0, 1, 2])
      expect(await page.getByRole('img', { name: `Softmax (Laplace): p(class ${c} | x)` }).count()).toBe(1);
    for (const title of ['predictive entropy', 'latent variance'])
      expect(await page.getByRole('img', { name: `Softmax (Laplace): ${title}` }).count()).toBe(1);

    // The canvas: three hues (the classes' #0072b2 ≈ 202°, #d55e00 ≈ 26°, #009e73 ≈ 164°), each on many pixels.
    const pixels = await map.evaluate((canvas: HTMLCanvasElement) =>
      Array.from(canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data),
    );
    const counts = [0, 0, 0],
      centres = [202, 26, 164];
    for (let k = 0; k < pixels.length; k += 4) {
      const h = hue(pixels[k], pixels[k + 1], pixels[k + 2]);
      if (h === null) continue;
      centres.forEach((centre, c) => {
        if (Math.min(Math.abs(h - centre), 360 - Math.abs(h - centre)) < 12) counts[c] += 1;
      });
    }
    for (const n of counts) expect(n).toBeGreaterThan(2000);

    // The legend, on the SVG export: every class, the boundary, the image.
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Softmax (Laplace): predicted class as SVG' }).click(),
    ]);
    const svg = readFileSync(await file.path(), 'utf8');
    for (const label of ['class 0', 'class 1', 'class 2', 'decision boundary', '>x1<', '>x2<'])
      expect(svg).toContain(label);
    expect(svg).toMatch(/data:image\/png;base64,/);
    expect(svg).toMatch(/<path d="M[^"]+" fill="none" stroke="#111111" stroke-width="1.6"\/>/);

    // Hover over training point 1 (or the point nearest the pointer there, where the blobs overlap): its
    // three probabilities, as the engine has them.
    const box = (await map.boundingBox())!;
    const tip = page.locator('.tooltip');
    const pointAt = Array.from(svg.matchAll(/M([\d.]+),([\d.]+)a3.2,3.2/g), (m) => [
      Number(m[1]) + 3.2,
      Number(m[2]),
    ])[0];
    await map.scrollIntoViewIfNeeded();
    const again = (await map.boundingBox())!;
    await page.mouse.move(
      again.x + pointAt[0] * (again.width / box.width),
      again.y + pointAt[1] * (again.height / box.height),
    );
    await expect.poll(() => tip.textContent()).toMatch(/^point \d+:/);
    const text = (await tip.textContent())!;
    const i = Number(/^point (\d+):/.exec(text)![1]) - 1;
    for (const c of [0, 1, 2]) expect(text).toContain(`p(${c}) ${formatMeasure(predicted[i * 3 + c])}`);
    await page.screenshot({ path: `${SHOTS}/classification-multiclass-1280.png`, fullPage: true });
  });

  it("certifies a point: every class's interval contains its probability there, with the safety verdict", async () => {
    await openExample('three-blobs');
    const map = page.getByRole('img', { name: 'Softmax (Laplace): predicted class' });
    await map.waitFor();
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.3, y: box.height * 0.55 } });
    const card = page.getByTestId('multiclass-certificate');
    await expect.poll(() => card.getAttribute('data-state'), { timeout: patient(150_000) }).toBe('done');
    for (const c of [0, 1, 2]) {
      const row = page.getByTestId(`multiclass-interval-${c}`);
      expect(await row.getAttribute('data-state')).toBe('done');
      const [minLower, minUpper, maxLower, maxUpper] = (await row.getAttribute('data-value'))!.split(',').map(Number);
      const at = Number((await row.locator('td').first().textContent())!);
      expect(minLower).toBeLessThanOrEqual(minUpper);
      expect(maxLower).toBeLessThanOrEqual(maxUpper);
      expect(minLower).toBeLessThanOrEqual(at + 1e-4);
      expect(maxUpper).toBeGreaterThanOrEqual(at - 1e-4);
      expect(minLower).toBeGreaterThanOrEqual(0);
      expect(maxUpper).toBeLessThanOrEqual(1);
    }
    const [status, lower, upper] = (await page.getByTestId('multiclass-safety').getAttribute('data-value'))!.split(',');
    expect(['certified', 'refuted', 'unknown']).toContain(status);
    expect(Number(lower)).toBeLessThanOrEqual(Number(upper));
    if (status === 'certified') expect(Number(lower)).toBeGreaterThan(0);
    if (status === 'refuted') expect(Number(upper)).toBeLessThan(0);
    expect(await page.getByTestId('multiclass-safety').textContent()).toMatch(/^(Certified|Refuted|Unknown so far)/);
    await page.screenshot({ path: `${SHOTS}/classification-multiclass-certified-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 800, height: 1000 });
    await page.screenshot({ path: `${SHOTS}/classification-multiclass-800.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SHOTS}/classification-multiclass-390.png`, fullPage: true });
  });

  it('cancels a long certificate: the root bounds stay, the page says it was cancelled', async () => {
    await openExample('three-blobs');
    for (const [label, value] of [
      ['tolerance', '0.000000001'],
      ['max iterations', '1000000'],
      ['time limit (s)', '0'],
      ['gamma', '2'],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill(value);
      await field.press('Tab');
    }
    const map = page.getByRole('img', { name: 'Softmax (Laplace): predicted class' });
    const box = (await map.boundingBox())!;
    await map.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
    const card = page.getByTestId('multiclass-certificate');
    await expect
      .poll(() => page.locator('[data-testid^="multiclass-interval-"][data-state="running"]').count(), {
        timeout: patient(60_000),
      })
      .toBe(1);
    await page.waitForTimeout(slow(1500));
    await page.getByRole('button', { name: 'Cancel', exact: true }).first().click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: patient(30_000) }).toBe('cancelled');
    expect(await card.textContent()).toContain('Cancelled: the intervals shown are still valid');
    // Every class has its root bounds still.
    for (const c of [0, 1, 2])
      expect((await page.getByTestId(`multiclass-interval-${c}`).getAttribute('data-value'))!.split(',').length).toBe(
        4,
      );
    await idle();
  });

  // Issue 36, item 3: "Time limit (s) 30" took 152 s, the limit holding each search of each class. It is now the
  // wall time of the whole certificate: with a 3 s limit and searches that would run for minutes, the card is done
  // within the limit plus the fits and root bounds, and says what the limit left undone.
  it('holds the time limit for the whole certificate and says what is left', async () => {
    await openExample('three-blobs');
    for (const [label, value] of [
      ['tolerance', '0.000000001'],
      ['max iterations', '1000000'],
      ['time limit (s)', '3'],
      ['gamma', '2'],
    ]) {
      const field = page.getByLabel(label, { exact: true });
      await field.fill(value);
      await field.press('Tab');
    }
    const map = page.getByRole('img', { name: 'Softmax (Laplace): predicted class' });
    const box = (await map.boundingBox())!;
    const card = page.getByTestId('multiclass-certificate');
    const start = Date.now();
    await map.click({ position: { x: box.width * 0.5, y: box.height * 0.5 } });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: patient(120_000) }).toBe('done');
    const seconds = (Date.now() - start) / 1000;
    // Before: 3 classes × 3 searches × 3 s, and more. Now 3 s and the fits (one per request) and root bounds.
    expect(seconds).toBeLessThan(3 + slow(6));
    const note = page.getByTestId('multiclass-time-limit');
    await note.waitFor();
    const said = (await note.textContent())!;
    console.log(`the time-limit note after ${seconds.toFixed(1)} s: ${said}`);
    expect(said).toMatch(/^Stopped at the time limit of 3 s \(\d+\.\d s in all, fits included\)\./);
    expect(said).toMatch(/Stopped on time: class \d \(π_min|Not refined: class \d/);
    expect(said).toContain('Every interval shown is still certified');
    // What is left is said per class, and every class still has a sound interval around its probability at x*.
    const states: string[] = [];
    for (const c of [0, 1, 2]) {
      const row = page.getByTestId(`multiclass-interval-${c}`);
      states.push((await row.getAttribute('data-state'))!);
      const [minLower, minUpper, maxLower, maxUpper] = (await row.getAttribute('data-value'))!.split(',').map(Number);
      const at = Number((await row.locator('td').first().textContent())!);
      expect(minLower).toBeLessThanOrEqual(Math.min(minUpper, at + 1e-4));
      expect(maxUpper).toBeGreaterThanOrEqual(Math.max(maxLower, at - 1e-4));
      if (states[c] === 'out-of-time') {
        expect(await row.textContent()).toContain('not refined: the time limit was used up');
        expect(said).toContain(`class ${c}`);
      }
    }
    expect(states.some((s) => s === 'out-of-time') || said.includes('Stopped on time')).toBe(true);
    await idle();
  });

  it('shows the digits 3, 5, 8 as 8 × 8 thumbnails with their three probabilities', async () => {
    await openExample('digits-358');
    const cells = page.getByTestId('multiclass-point');
    await expect.poll(() => cells.count(), { timeout: patient(120_000) }).toBe(60);
    const first = (await cells.first().getAttribute('data-value'))!.split(',').map(Number);
    expect(first.length).toBe(3);
    expect(first.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 9);
    expect(await cells.first().locator('canvas').getAttribute('width')).toBe('8');
    const accuracy = Number(await page.getByTestId('multiclass-accuracy').getAttribute('data-value'));
    expect(accuracy).toBeGreaterThan(0.8);
    await page.screenshot({ path: `${SHOTS}/classification-multiclass-digits-1280.png`, fullPage: true });
  });
});
