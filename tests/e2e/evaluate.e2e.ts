// The evaluation lab in Chromium on the built app and the digits demo: the numbers shown equal the
// engine's in Node for the same inputs, Cancel stops a run, the fuzzy clouds and OOD curves render, and
// the OOD view's AUROC values equal the core's. Every test also checks: no console errors, and no
// request leaves the page's origin.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  auroc,
  createProbeEngine,
  runBaseline,
  runExperiment,
  type ExperimentResult,
  type ProbeEngine,
} from '../../web/src/engine/index.ts';
import { browserPerFile, patient, SHOTS, waitForResults } from './browser.ts';
import { digits, gather } from './digits.ts';

const baseUrl = inject('baseUrl');
const browser = browserPerFile(new URL(baseUrl).origin);
let demo: ReturnType<typeof digits>;
let engine: ProbeEngine;
let page: Page;

beforeAll(async () => {
  engine = await createProbeEngine();
  demo = digits(engine);
});
beforeEach(async () => {
  page = browser.page;
  await page.goto(baseUrl);
  await waitForResults(page);
});

const settings = () => page.getByRole('region', { name: 'Experiment settings' });

async function openExperiment(label: string): Promise<void> {
  await page.getByRole('tab', { name: 'Evaluation' }).click();
  await page.getByRole('group', { name: 'Experiment' }).getByRole('button', { name: label }).click();
}

/** Runs the chosen experiment and returns the seconds the engine reported. */
async function run(buttonName: string): Promise<number> {
  await settings().getByRole('button', { name: buttonName }).click();
  await page.getByTestId('evaluation-summary').waitFor({ timeout: patient(120_000) });
  await page.waitForFunction(() => !document.querySelector('.eval-progress'), undefined, { timeout: patient(120_000) });
  const summary = (await page.getByTestId('evaluation-summary').textContent())!;
  return Number(/· ([0-9.]+) s$/.exec(summary)![1]);
}

/** The table's cells as full-precision numbers, keyed "method@O". */
async function tableValues(testId: string): Promise<Map<string, { mean: number; sd: number }>> {
  const cells = await page
    .getByTestId(testId)
    .locator('td[data-value]')
    .evaluateAll((tds) =>
      tds.map((td) => {
        const d = (td as HTMLElement).dataset;
        return [`${d.method}@${d.observations}`, Number(d.value), Number(d.sd)] as const;
      }),
    );
  return new Map(cells.map(([key, mean, sd]) => [key, { mean, sd }]));
}

function expectSameCurves(shown: Map<string, { mean: number; sd: number }>, expected: ExperimentResult): void {
  const ran = expected.curves.reduce((n, c) => n + c.mean.filter((m) => !Number.isNaN(m)).length, 0);
  expect(shown.size).toBe(ran);
  for (const curve of expected.curves) {
    expected.observationCounts.forEach((o, j) => {
      if (Number.isNaN(curve.mean[j])) return; // not run there (GPC above its limit): a dash, no value
      const cell = shown.get(`${curve.method}@${o}`)!;
      expect(Math.abs(cell.mean - curve.mean[j]), `${curve.method} at O = ${o}`).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(cell.sd - curve.sd[j]), `${curve.method} sd at O = ${o}`).toBeLessThanOrEqual(1e-12);
    });
  }
}

describe('the Evaluate view on the demo', () => {
  it("runs probing with the defaults (GPC probes up to O = 128 among them) and shows the engine's numbers; the CSV holds them exactly", async () => {
    await openExperiment('Probing');
    const seconds = await run('Run probing');
    console.info(`probing, 10 trials, in Chromium: ${seconds} s`);
    const expected = await runExperiment(engine, {
      experiment: 'probing',
      embeddings: demo.embeddings,
      labels: demo.labels,
      queryMask: demo.queryMask,
      trials: 10,
      seed: 0,
      maxObservations: 512,
      maxQueries: 1000,
      members: 100,
      k: 1,
      epsilon: 0.1,
      strength: 5,
      gpc: true,
      gpcMaxObservations: 128,
    });
    expect(expected.curves.map((c) => c.method)).toEqual(['gpp', 'lp', 'svm', 'lpe', 'gpc-laplace', 'gpc-ep']);
    expectSameCurves(await tableValues('probing-table'), expected);
    expect(
      await page
        .getByTestId('probing-table')
        .locator('td[data-method="gpc-ep"][data-observations="256"]')
        .textContent(),
    ).toBe('—');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export curves (CSV)' }).click(),
    ]);
    const [header, ...rows] = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    expect(header).toEqual(['method', 'metric', 'observations', 'mean', 'sd', 'trials']);
    expect(rows.length).toBe(4 * 9 + 2 * 7); // GPC's rows stop at O = 128, as gpprobe evaluate --gpc writes them
    for (const [method, metric, o, mean, sd, trials] of rows) {
      const curve = expected.curves.find((c) => c.method === method)!;
      const j = expected.observationCounts.indexOf(Number(o));
      expect([metric, trials]).toEqual(['auroc', '10']);
      expect(Math.abs(Number(mean) - curve.mean[j])).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(Number(sd) - curve.sd[j])).toBeLessThanOrEqual(1e-12);
    }
    await page.getByTestId('probing-curves').locator('canvas[role="img"]').waitFor();
    await page.screenshot({ path: `${SHOTS}/evaluate-probing.png`, fullPage: true });
    // The result stays when the user looks elsewhere, and is marked stale once the concept changes.
    await page.getByRole('tab', { name: 'Probe' }).click();
    await page.locator('select[aria-label="Concept column"]').selectOption('even');
    await page.getByRole('tab', { name: 'Evaluation' }).click();
    expect(await page.getByTestId('evaluation-summary').textContent()).toMatch(
      /^The data, concept, query subset or OOD set changed since this run/,
    );
    expectSameCurves(await tableValues('probing-table'), expected);
  });

  it('cancels a run: the run stops and the view says so', async () => {
    await openExperiment('Fuzzy concepts');
    await settings().getByRole('button', { name: 'Run fuzzy concepts' }).click();
    const progress = page.locator('.eval-progress');
    await expect.poll(() => progress.textContent(), { timeout: patient(30_000) }).toMatch(/trial 2 of 10/);
    await page.screenshot({ path: `${SHOTS}/evaluate-running.png` });
    await progress.getByRole('button', { name: 'Cancel' }).click();
    const started = Date.now();
    await page.getByTestId('evaluation-outcome').waitFor({ timeout: patient(10_000) });
    console.info(`cancel took effect after ${Date.now() - started} ms`);
    expect(await page.getByTestId('evaluation-outcome').textContent()).toMatch(/^Cancelled during trial [23] of 10\.$/);
    expect(await progress.count()).toBe(0);
    expect(await page.locator('.task-bar').count()).toBe(0);
    expect(await page.getByTestId('evaluation-summary').count()).toBe(0);
    // The engine is still usable: probing runs after the cancelled run.
    await page.getByRole('group', { name: 'Experiment' }).getByRole('button', { name: 'Probing' }).click();
    await settings().getByLabel('trials', { exact: true }).fill('2');
    await settings().getByLabel('trials', { exact: true }).press('Enter');
    await run('Run probing');
  });

  it("runs the fuzzy experiment and draws GPP's and LPE's clouds with the irrational region", async () => {
    await openExperiment('Fuzzy concepts');
    const seconds = await run('Run fuzzy concepts');
    console.info(`fuzzy, 10 trials, in Chromium: ${seconds} s`);
    for (const id of ['fuzzy-curves', 'cloud-gpp-judged', 'cloud-lpe-judged', 'cloud-gpp-alea', 'cloud-lpe-alea']) {
      await page.getByTestId(id).locator('canvas[role="img"]').waitFor();
    }
    expect(await page.getByTestId('cloud-gpp-judged').locator('h2').textContent()).toBe(
      'GPP: judged probability vs episteme (p = 0.5, O = 16)',
    );
    const expected = await runExperiment(engine, {
      experiment: 'fuzzy',
      embeddings: demo.embeddings,
      labels: demo.labels,
      queryMask: demo.queryMask,
      trials: 10,
    });
    expectSameCurves(await tableValues('fuzzy-table'), expected);
    await page.screenshot({ path: `${SHOTS}/evaluate-fuzzy.png`, fullPage: true });
    await page.locator('select[aria-label="Cloud observations"]').selectOption('2');
    expect(await page.getByTestId('cloud-lpe-judged').locator('h2').textContent()).toBe(
      'LPE: judged probability vs episteme (p = 0.5, O = 2)',
    );
  });

  it("runs the OOD experiment against the demo's noise images", async () => {
    await openExperiment('Out-of-distribution');
    const seconds = await run('Run out-of-distribution');
    console.info(`ood, 10 trials, in Chromium: ${seconds} s`);
    await page.getByTestId('ood-curves').locator('canvas[role="img"]').waitFor();
    const expected = await runExperiment(engine, {
      experiment: 'ood',
      embeddings: demo.embeddings,
      labels: demo.labels,
      queryMask: demo.queryMask,
      ood: demo.ood,
      trials: 10,
    });
    expectSameCurves(await tableValues('ood-table'), expected);
    expect(await page.getByTestId('evaluation-summary').textContent()).toContain('1,797 rows + 512 OOD rows');
    await page.screenshot({ path: `${SHOTS}/evaluate-ood.png`, fullPage: true });
  });
});

describe('an OOD set defined by a metadata column', () => {
  it('runs the OOD experiment on the in-distribution rows against the others, as the engine does', async () => {
    await page.getByRole('tab', { name: 'Out-of-distribution' }).click();
    await page.locator('select[aria-label="In-distribution column"]').selectOption('digit');
    const chips = page.getByRole('group', { name: 'In-distribution values' });
    expect(await chips.locator('.value-option.on .value').textContent()).toBe('0');
    await chips.getByRole('button', { name: '1', exact: true }).click();
    await openExperiment('Out-of-distribution');
    await settings().getByLabel('trials', { exact: true }).fill('2');
    await settings().getByLabel('trials', { exact: true }).press('Enter');
    await settings().getByLabel('max observations').selectOption('8');
    await run('Run out-of-distribution');
    const digit = readFileSync('web/public/demo/digits/metadata.csv', 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[1]);
    const inside = digit.flatMap((d, i) => (d === '0' || d === '1' ? [i] : []));
    const outside = digit.flatMap((d, i) => (d === '0' || d === '1' ? [] : [i]));
    const expected = await runExperiment(engine, {
      experiment: 'ood',
      embeddings: gather(demo.embeddings, inside),
      labels: Uint8Array.from(inside, (i) => demo.labels[i]),
      queryMask: Uint8Array.from(inside, (i) => demo.queryMask[i]),
      ood: gather(demo.embeddings, outside),
      trials: 2,
      maxObservations: 8,
    });
    expectSameCurves(await tableValues('ood-table'), expected);
    expect(await page.getByTestId('evaluation-summary').textContent()).toContain(
      `${inside.length} rows + ${outside.length.toLocaleString('en-US')} OOD rows`,
    );
  });
});

describe('the Out-of-distribution view', () => {
  it("shows the ROC curves and AUROC of GPP beside the baselines, equal to the engine's", async () => {
    await page.getByRole('tab', { name: 'Out-of-distribution' }).click();
    await page
      .getByTestId('ood-roc')
      .locator('canvas[role="img"]')
      .waitFor({ timeout: patient(60_000) });
    await page.getByTestId('ood-auroc').waitFor();
    // The same inputs in Node: the demo's observations; queries = test rows that are not observations, then the OOD set.
    const observed = new Set(demo.observations);
    const inside = Array.from(demo.queryMask.keys()).filter((i) => demo.queryMask[i] === 1 && !observed.has(i));
    expect(await page.getByTestId('ood-split').textContent()).toContain(
      `the ${inside.length} query rows against the 512 OOD rows`,
    );
    const insideRows = gather(demo.embeddings, inside);
    const data = new Float32Array(insideRows.data.length + demo.ood.data.length);
    data.set(insideRows.data);
    data.set(demo.ood.data, insideRows.data.length);
    const queries = { data, rows: inside.length + demo.ood.rows, cols: demo.embeddings.cols };
    const truth = Uint8Array.from({ length: queries.rows }, (_, i) => (i < inside.length ? 1 : 0));
    const observations = gather(demo.embeddings, demo.observations);
    const labels = Uint8Array.from(demo.observations, (r) => demo.labels[r]);
    const probe = engine.fitProbe({ observations, labels, epsilon: 0.1, strength: 5, expectedQueries: queries.rows });
    const expected: Record<string, number> = { gpp: auroc(engine, truth, probe.score(queries).oodScore) };
    probe.dispose();
    for (const method of ['msp', 'maha', 'knn', 'lpe'] as const) {
      expected[method] = auroc(
        engine,
        truth,
        runBaseline(engine, { method, observations, labels, queries, k: 1, seed: 0, members: 100 }).score,
      );
    }
    const shown = await page
      .getByTestId('ood-auroc')
      .locator('tr[data-method]')
      .evaluateAll((rows) =>
        rows.map(
          (r) =>
            [
              (r as HTMLElement).dataset.method!,
              Number(r.querySelector('td[data-value]')?.getAttribute('data-value')),
            ] as const,
        ),
      );
    expect(shown.map(([m]) => m)).toEqual(['gpp', 'msp', 'maha', 'knn', 'lpe']);
    for (const [method, value] of shown) expect(Math.abs(value - expected[method]), method).toBeLessThanOrEqual(1e-12);
    console.info(`OOD view AUROC: ${shown.map(([m, v]) => `${m} ${v.toFixed(4)}`).join(', ')}`);
    await page.screenshot({ path: `${SHOTS}/ood-view-baselines.png`, fullPage: true });
  });
});
