// The Compare lab in Chromium on the built app: three layer files of the digits network chosen together
// are compared on the demo's concept (closed loop) with the sidebar's observations; the table, the
// layer profile and the sentence show, and the observation curves run; the exported CSV holds the engine's numbers in Node for the same
// files, concept and observations (to 1e-12) under the CLI's header; a row opens its probe in the Probe
// tab on that layer. Every test also checks: no console errors, and no request leaves the page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  createProbeEngine,
  type Matrix,
  type ProbeEngine,
  type RepresentationComparison,
} from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { browserPerFile, downloadText, patient, SHOTS, waitForResults } from './browser.ts';
import { digits } from './digits.ts';

const baseUrl = inject('baseUrl');
const browser = browserPerFile(new URL(baseUrl).origin);
const DIR = 'web/public/demo/digits_layers';
const LAYERS = ['layer_0_pixels.npy', 'layer_1_hidden.npy', 'layer_2_hidden.npy'];
const ALL = [...LAYERS, 'layer_3_logits.npy'];
let engine: ProbeEngine;
let expected: RepresentationComparison;
let page: Page;

function matrix(file: string): Matrix {
  const a = parseNpy(readFileSync(`${DIR}/${file}`), file);
  return { data: a.data, rows: a.shape[0], cols: a.shape[1] };
}

beforeAll(async () => {
  engine = await createProbeEngine();
  const demo = digits(engine);
  expected = await engine.compareRepresentations({
    embeddings: LAYERS.map((name) => ({ name, embeddings: matrix(name) })),
    concepts: [{ name: 'closed_loop ∈ {1}', labels: demo.labels, observations: demo.observations }],
    epsilon: 0.1,
    strength: 5,
  });
});
beforeEach(async () => {
  page = browser.page;
  await page.goto(baseUrl);
  await waitForResults(page);
});

function csvRows(text: string): string[][] {
  return text
    .trim()
    .split('\n')
    .map((line) => line.split(','));
}

describe('the Compare lab', () => {
  it("compares three layer files on the sidebar's concept: table, profile, sentence, export, and a row opens its probe", async () => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByTestId('compare-files').setInputFiles(LAYERS.map((f) => `${DIR}/${f}`));
    await page.getByTestId('compare-representations').waitFor();
    expect(await page.getByTestId('compare-representations').locator('li').allTextContents()).toEqual([
      'layer_0_pixels.npy · 1,797 × 64 float32',
      'layer_1_hidden.npy · 1,797 × 128 float32',
      'layer_2_hidden.npy · 1,797 × 64 float32',
    ]);
    // One set of observations (the draws are compare_draws.e2e.ts's).
    await page.getByTestId('compare-draws').fill('1');
    await page.getByTestId('compare-draws').dispatchEvent('change');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-sentence').waitFor({ timeout: patient(60_000) });
    const summary = (await page.getByTestId('compare-summary').textContent())!;
    console.info(`compare, 3 layers × 1,797 rows, in Chromium: ${/([0-9.]+) s$/.exec(summary)![1]} s`);
    expect(await page.getByTestId('compare-sentence').textContent()).toBe(expected.concepts[0].sentence);
    expect(await page.getByTestId('compare-row').count()).toBe(3);
    await expect(page.getByTestId('compare-profile').isVisible()).resolves.toBe(true);
    await page.screenshot({ path: `${SHOTS}/compare.png`, fullPage: true });

    const csv = csvRows(await downloadText(page, 'Export table (CSV)'));
    expect(csv[0].slice(0, 8).join(',')).toBe(
      'embedding,width,loo_auroc,loo_auroc_lower,loo_auroc_upper,heldout_auroc,mean_episteme,mean_alea',
    );
    expect(csv.length).toBe(4);
    const column = (name: string) => csv[0].indexOf(name);
    expected.concepts[0].probes.forEach((p, k) => {
      const row = csv[k + 1];
      expect(row[0]).toBe(LAYERS[k]);
      expect(Number(row[column('width')])).toBe(p.width);
      for (const [name, value] of [
        ['loo_auroc', p.looAuroc],
        ['loo_auroc_lower', p.looAurocLower],
        ['loo_auroc_upper', p.looAurocUpper],
        ['heldout_auroc', p.heldoutAuroc],
        ['mean_episteme', p.meanEpisteme],
        ['mean_alea', p.meanAlea],
        ['decided_fraction', p.decidedFraction],
        ['p_value_against_best', p.pValueAgainstBest],
      ] as const) {
        expect(Math.abs(Number(row[column(name)]) - value), `${LAYERS[k]} ${name}`).toBeLessThanOrEqual(1e-12);
      }
    });

    // Sorting by held-out AUROC puts the best first.
    await page.getByTestId('compare-table').getByRole('button', { name: 'held-out AUROC' }).click();
    const best = LAYERS[expected.concepts[0].best];
    expect(await page.getByTestId('compare-row').first().locator('td.name').textContent()).toBe(`★ ${best}`);

    // Evaluate's probing experiment per representation: one curve each.
    await page.getByRole('region', { name: 'Observation curves' }).getByRole('button', { name: /^Run/ }).click();
    await page.getByTestId('compare-curves').waitFor({ timeout: patient(120_000) });
    await page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(120_000) });
    await page.getByTestId('compare-curves').screenshot({ path: `${SHOTS}/compare-curves.png` });

    // The hidden layer's row opens its probe in the Probe tab: its rows, the same concept and observations.
    const row = page.getByTestId('compare-row').filter({ hasText: 'layer_1_hidden.npy' });
    await row.getByTestId('compare-open').click();
    await page.getByRole('tab', { name: 'Probe', selected: true }).waitFor();
    await waitForResults(page);
    expect(await page.locator('body').textContent()).toContain('layer_1_hidden.npy');
  });

  it("makes the concept × representation grid of every digit on the bundled layers, each cell the engine's, and a cell opens its probe", async () => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByRole('button', { name: 'Load the digits layers demo' }).click();
    await page.getByTestId('compare-representations').waitFor();
    expect(await page.getByTestId('compare-representations').locator('li').allTextContents()).toEqual(
      ALL.map((f, k) => `${f} · 1,797 × ${[64, 128, 64, 10][k]} float32 · OOD set 512 rows`),
    );
    await page.getByRole('radio', { name: 'every value of' }).check();
    await page.getByLabel('grid column').selectOption('digit');
    await page.getByTestId('compare-draws').fill('1');
    await page.getByTestId('compare-draws').dispatchEvent('change');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-grid').waitFor({ timeout: patient(60_000) });
    expect(await page.locator('[data-testid^="compare-cell-"]').count()).toBe(40);
    // Row 3 (digit = 3) against the engine in Node: the demo's draw (8 per class, seed 1) of that concept,
    // each layer with its OOD set.
    const [header, ...lines] = readFileSync('web/public/demo/digits/metadata.csv', 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const labels = Uint8Array.from(lines, (cells) => (cells[header.indexOf('digit')] === '3' ? 1 : 0));
    const reference = await engine.compareRepresentations({
      embeddings: ALL.map((name) => ({ name, embeddings: matrix(name), ood: matrix(`ood_${name}`) })),
      concepts: [{ name: 'digit = 3', labels, observations: engine.drawObservations(labels, 8, 1) }],
    });
    for (let k = 0; k < 4; k++) {
      const text = (await page.getByTestId(`compare-cell-3-${k}`).textContent())!;
      expect(text.replace(' ★', '')).toBe(reference.concepts[0].probes[k].basisAuroc.toFixed(3));
    }
    // The OOD sets came with the demo: the table's OOD AUROC is the engine's.
    await page.getByTestId('compare-grid').getByRole('button', { name: 'digit = 3' }).click();
    const ood = await page.getByTestId('compare-row').locator('td:nth-child(8)').allTextContents();
    expect(ood).toEqual(reference.concepts[0].probes.map((p) => p.oodAuroc.toFixed(3)));
    await page.screenshot({ path: `${SHOTS}/compare-grid.png`, fullPage: true });
    await page.getByTestId('compare-cell-3-1').click();
    await page.getByRole('tab', { name: 'Probe', selected: true }).waitFor();
    await waitForResults(page);
    expect(await page.locator('body').textContent()).toContain('layer_1_hidden.npy');
    await page.screenshot({ path: `${SHOTS}/compare-opened.png` });
  });
});
