// The Classification tab in Chromium, as a user meets it: the first example fitted by Laplace and EP side
// by side (the numbers shown equal the engine's in Node for the same data and settings, bit for bit),
// both maps drawn and labelled for each model, hover for the numbers, a bad CSV refused while the data
// stay, a CSV with three features plotted on a chosen plane with the held value said on the plot,
// hyperparameters learned (equal to the engine's), a long fit with progress, the page drawing
// throughout, and Cancel; the exports; screenshots at 1280 × 800 and 390 × 844. Every test also checks:
// no console errors, and no request leaves the page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createClassificationEngine, type ClassificationEngine } from '../../web/src/engine/index.ts';
import { formatDigits17, formatMeasure } from '../../web/src/common/ui/format.ts';
import { browserPerFile, patient, SHOTS, slow, worstFrameGap } from './browser.ts';

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

const evidence = (side: 'A' | 'B') => page.getByTestId(`model-${side}-evidence`);

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });

/** Opens the Classification tab and waits for both models' first fits of the first example, and for
 * every task to end: the task bar sits above the page, so while the demo's probe run (started at load)
 * is still on it, everything below moves up by its height when it ends. */
async function openLab(viewport = { width: 1280, height: 800 }): Promise<void> {
  await page.setViewportSize(viewport);
  await page.goto(baseUrl);
  await page.getByRole('tab', { name: 'Classification' }).click();
  for (const side of ['A', 'B'] as const) {
    await expect
      .poll(() => evidence(side).textContent(), { timeout: patient(60_000) })
      .toContain('log marginal likelihood');
  }
  await idle();
}
const shownLml = async (side: 'A' | 'B') =>
  Number(await evidence(side).locator('[data-value]').getAttribute('data-value'));

async function download(button: string | RegExp): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: patient(60_000) }),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFileSync(await file.path(), 'utf8');
}

async function uploadCsv(name: string, text: string): Promise<void> {
  await page
    .locator('input[aria-label="Classification CSV file"]')
    .setInputFiles([{ name, mimeType: 'text/csv', buffer: Buffer.from(text) }]);
}

describe('the classification lab', () => {
  it("fits the first example by Laplace and EP side by side, draws and labels both maps, with the engine's numbers", async () => {
    await openLab();
    const data = engine.example('two-blobs', 1);
    const kernel = { signalVariance: 1, lengthScales: [1, 1] };
    for (const [side, method] of [
      ['A', 'laplace'],
      ['B', 'ep'],
    ] as const) {
      const gpc = engine.fitClassifier({ inputs: data.x, labels: data.labels, method, likelihood: 'probit', kernel });
      expect(await shownLml(side)).toBe(gpc.state.logMarginalLikelihood);
      // Hover over training point 1: its numbers are the engine's at that point.
      const p = gpc.predict({ data: data.x.data.slice(0, 2), rows: 1, cols: 2 });
      gpc.dispose();
      const title = `${method === 'ep' ? 'EP' : 'Laplace'} (probit): p(y = 1 | x)`;
      const canvas = page.getByRole('img', { name: title });
      await canvas.waitFor();
      expect(
        await page
          .getByRole('img', { name: `${method === 'ep' ? 'EP' : 'Laplace'} (probit): latent variance` })
          .count(),
      ).toBe(1);
      const svg = await download(`Export ${title} as SVG`);
      expect(svg).toContain('<image ');
      expect(svg).toMatch(/data:image\/png;base64,/);
      for (const label of ['class 0', 'class 1', 'p = 0.5', 'p(y = 1 | x)', '>x1<', '>x2<'])
        expect(svg).toContain(label);
      expect(svg).toMatch(/<path d="M[^"]+" fill="none" stroke="#111111" stroke-width="1.6"\/>/); // the 0.5 contour
      // The point's place on the canvas, from the SVG (same layout): the first circle of the interactive mark.
      // Read again at each try, with where the canvas is: a late layout change (the task bar leaving, a
      // scroll bar appearing) must not send the pointer to the map beside the point.
      const pointAt = (drawn: string) =>
        Array.from(drawn.matchAll(/M([\d.]+),([\d.]+)a3.2,3.2/g), (m) => [Number(m[1]) + 3.2, Number(m[2])])[0];
      await canvas.scrollIntoViewIfNeeded();
      const tip = page.locator('.tooltip');
      let drawn = svg;
      await expect
        .poll(
          async () => {
            const [px, py] = pointAt(drawn);
            const box = (await canvas.boundingBox())!;
            await page.mouse.move(box.x + 1, box.y + 1); // away first: a move to where the pointer is fires nothing
            await page.mouse.move(box.x + px, box.y + py);
            const text = (await tip.textContent()) ?? '';
            if (!text.includes('point 1: class')) drawn = await download(`Export ${title} as SVG`);
            return text;
          },
          { timeout: patient(20_000) },
        )
        .toContain('point 1: class');
      expect(await tip.textContent()).toContain(`p(y = 1) ${formatMeasure(p.probability[0])}`);
    }
    expect(await page.getByTestId('classification-summary').textContent()).toMatch(
      /^Two blobs: 100 points, 2 features · A: log marginal likelihood/,
    );
    await page.mouse.move(0, 0);
    await page.screenshot({ path: `${SHOTS}/classification-1280.png`, fullPage: true });

    // The CSV: every training point and grid point with both models' columns at 17 digits, the engine's values.
    const csv = (await download('Export predictions (CSV)')).trim().split('\n');
    expect(csv[0]).toBe(
      'set,point,x1,x2,label,laplace_probit_latent_mean,laplace_probit_latent_variance,laplace_probit_probability,ep_probit_latent_mean,ep_probit_latent_variance,ep_probit_probability',
    );
    expect(csv.filter((l) => l.startsWith('training,'))).toHaveLength(100);
    expect(csv.filter((l) => l.startsWith('grid,'))).toHaveLength(150 * 150);
    const ep = engine.fitClassifier({ inputs: data.x, labels: data.labels, method: 'ep', kernel });
    const grid = csv.filter((l) => l.startsWith('grid,')).map((l) => l.split(','));
    const points = Float64Array.from(grid.flatMap((cells) => [Number(cells[2]), Number(cells[3])]));
    const expected = ep.predict({ data: points, rows: grid.length, cols: 2 });
    ep.dispose();
    grid.forEach((cells, k) => {
      if (k % 997 !== 0) return; // a sample of rows, every digit
      expect(cells.slice(8)).toEqual(
        [expected.latentMean[k], expected.latentVariance[k], expected.probability[k]].map(formatDigits17),
      );
    });

    // The logistic likelihood: exact E[sigmoid f] by default; MacKay's approximation on request, labelled so.
    await page.getByLabel('Model A likelihood').selectOption('logistic');
    await expect
      .poll(() => evidence('A').textContent(), { timeout: patient(30_000) })
      .toMatch(/log marginal likelihood -2[0-9.]+/);
    await page.getByRole('img', { name: 'Laplace (logistic): p(y = 1 | x)' }).waitFor();
    await page.getByLabel("Model A: show MacKay's approximation").check();
    await page.getByRole('img', { name: "Laplace (logistic): p(y = 1 | x), MacKay's approximation" }).waitFor();
    expect(await page.getByTestId('model-A-probability').locator('.caption').textContent()).toContain(
      "by MacKay's approximation",
    );
  });

  it("shows a bad CSV's error and keeps the loaded data; plots three features on a chosen plane", async () => {
    await openLab();
    const before = await page.getByTestId('classification-data-summary').textContent();
    const lml = await shownLml('A');
    await uploadCsv('broken.csv', 'x1,x2,label\n0.1,0.2,0\n0.3,0.1,2.5\n');
    await expect
      .poll(() => page.getByTestId('classification-data-error').textContent(), { timeout: patient(30_000) })
      .toBe(
        "broken.csv: column 'label' (label) row 2 is 2.5; labels must be class indices 0, 1, 2, … (or -1/+1), or text values",
      );
    expect(await page.getByRole('alert').textContent()).toContain('broken.csv: column');
    expect(await page.getByTestId('classification-data-summary').textContent()).toBe(before);
    expect(await shownLml('A')).toBe(lml);
    await page.screenshot({ path: `${SHOTS}/classification-bad-csv.png` });

    // Three features: the maps show two columns, the third held at its median, and say so.
    const rows = Array.from({ length: 60 }, (_, i) => {
      const a = Math.cos(i),
        b = Math.sin(1.7 * i),
        c = (i % 7) / 7;
      return `${a},${b},${c},${a + b > 0 ? 'yes' : 'no'}`;
    });
    await uploadCsv('three.csv', `a,b,c,class\n${rows.join('\n')}\n`);
    await expect
      .poll(() => page.getByTestId('classification-data-summary').textContent(), { timeout: patient(30_000) })
      .toContain('three.csv');
    expect(await page.getByTestId('classification-data-summary').textContent()).toContain(
      "labels: 'no' is class 0, 'yes' is class 1",
    );
    await page.getByLabel('Vertical axis column').selectOption({ label: 'c' });
    await page.getByLabel('held value of b').fill('0.25');
    await page.getByLabel('held value of b').press('Tab');
    await expect
      .poll(async () => (await download('Export Laplace (probit): p(y = 1 | x) as SVG')).includes('held: b = 0.25'), {
        timeout: patient(30_000),
      })
      .toBe(true);
    const svg = await download('Export Laplace (probit): p(y = 1 | x) as SVG');
    expect(svg).toContain('>a<');
    expect(svg).toContain('>c<');
    expect(svg).toContain('class yes');
    // The caption says what the plane is.
    expect(await page.getByTestId('model-A-probability').locator('.caption').textContent()).toContain('with b = 0.25');

    // One feature: curves along it, the points at their classes.
    await uploadCsv(
      'one.csv',
      `t,label\n${Array.from({ length: 30 }, (_, i) => `${i / 10},${i > 14 ? 1 : 0}`).join('\n')}\n`,
    );
    await expect.poll(() => evidence('B').textContent(), { timeout: patient(30_000) }).toContain('EP sweeps');
    const curve = await download('Export EP (probit): p(y = 1 | x) as SVG');
    expect(curve).not.toContain('<image ');
    expect(curve).toMatch(/<path d="M[^"]+" fill="none" stroke="#111111" stroke-width="2"\/>/);
    expect(curve).toContain('>t<');
    await page.screenshot({ path: `${SHOTS}/classification-one-feature.png` });
  });

  it('learns the hyperparameters of both models as the engine does', async () => {
    await openLab();
    await page.getByLabel('restarts', { exact: true }).fill('0');
    await page.getByLabel('restarts', { exact: true }).press('Tab');
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await page.getByTestId('classification-learned').waitFor({ timeout: patient(120_000) });
    await idle();
    const data = engine.example('two-blobs', 1);
    for (const [side, method] of [
      ['A', 'laplace'],
      ['B', 'ep'],
    ] as const) {
      const gpc = engine.optimizeClassifier({
        inputs: data.x,
        labels: data.labels,
        method,
        kernel: { signalVariance: 1, lengthScales: [1, 1] },
        restarts: 0,
        seed: 0,
      });
      const s = gpc.state;
      gpc.dispose();
      const row = page.getByTestId(`learned-${side}`);
      const cells = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.getAttribute('data-value')));
      expect(cells).toEqual([
        String(s.signalVariance),
        Array.from(s.lengthScales).join(','),
        String(s.logMarginalLikelihood),
      ]);
      expect(await shownLml(side)).toBe(s.logMarginalLikelihood);
      // The fields now hold the learned doubles.
      expect(await page.getByLabel(`Model ${side} signal variance`, { exact: true }).getAttribute('data-value')).toBe(
        String(s.signalVariance),
      );
    }
    // The optimiser ran on a second instance of the engine worker (cancel ends only that one).
    expect(page.workers()).toHaveLength(2);
  });

  it('fits 400 points with progress and a live page, and cancels a fit', async () => {
    await openLab();
    // Two noisy interleaved spirals: enough work for EP to take seconds per evidence.
    const lines = Array.from({ length: 400 }, (_, i) => {
      const t = 0.5 + (i / 400) * 9,
        k = i % 2;
      const jitter = Math.sin(i * 12.9898) * 0.35;
      return `${(Math.cos(t + k * Math.PI) * t) / 3 + jitter},${(Math.sin(t + k * Math.PI) * t) / 3 - jitter},${k}`;
    });
    await uploadCsv('spirals.csv', `x1,x2,label\n${lines.join('\n')}\n`);
    await expect.poll(() => evidence('B').textContent(), { timeout: patient(120_000) }).toContain('EP sweeps');
    await idle();
    const lml = await shownLml('B');
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    const bar = page.getByLabel('Fitting hyperparameters progress');
    await expect
      .poll(async () => Number((await bar.getAttribute('value')) ?? 0), { timeout: patient(60_000) })
      .toBeGreaterThan(0);
    expect(await worstFrameGap(page, 1500)).toBeLessThan(slow(250));
    expect(await page.locator('.task-bar').textContent()).toMatch(
      /Laplace \(probit\) \(1 of 2\): L-BFGS iterations|EP \(probit\) \(2 of 2\)/,
    );
    await page.screenshot({ path: `${SHOTS}/classification-progress.png` });
    const cancelled = Date.now();
    await page.locator('.task-bar').getByRole('button', { name: 'Cancel' }).click();
    await idle();
    expect(Date.now() - cancelled).toBeLessThan(slow(2000));
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Hyperparameter fit cancelled' }).count(), {
        timeout: patient(10_000),
      })
      .toBe(1);
    expect(await shownLml('B')).toBe(lml);
    expect(await page.getByTestId('classification-learned').count()).toBe(0);
    // The fresh worker answers: a changed value refits.
    await page.getByLabel('Model B signal variance', { exact: true }).fill('2');
    await page.getByLabel('Model B signal variance', { exact: true }).press('Tab');
    await expect.poll(() => shownLml('B'), { timeout: patient(60_000) }).not.toBe(lml);
  });

  it('fits on a phone: one column, nothing clipped', async () => {
    await openLab({ width: 390, height: 844 });
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    await page.screenshot({ path: `${SHOTS}/classification-390.png`, fullPage: true });
    await page.getByTestId('model-A').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/classification-390-model.png` });
  });
});
