// Toggling an observation in the app on the digits demo: the worker brings every score up to date by
// rank-one updates (no full pass over the embeddings or the OOD set), and what the page shows after it —
// the exported results and the points of the exported judged-probability plot — equals a probe fitted
// afresh in Node on the new observations. A regression to a full re-score, or a plot left drawing the
// scores from before the click, fails here (no timing is asserted).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createProbeEngine, type ProbeEngine, type ProbeScores } from '../../web/src/engine/index.ts';
import { NEGATIVE, POSITIVE } from '../../web/src/common/plots/colors.ts';
import { browserPerFile, slow, waitForResults } from './browser.ts';
import { digits, gather } from './digits.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);
let engine: ProbeEngine;
let demo: ReturnType<typeof digits>;
let page: Page;

beforeAll(async () => {
  engine = await createProbeEngine();
  demo = digits(engine);
});
beforeEach(() => {
  page = pages.page;
});

async function download(name: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name, exact: true }).click(),
  ]);
  return readFileSync(await file.path(), 'utf8');
}

/** The session as the app saved it (its observations and hyperparameters). */
async function savedSession(): Promise<{ observations: number[]; epsilon: number; strength: number }> {
  return JSON.parse((await page.evaluate(() => localStorage.getItem('gpprobe.session.v1')))!);
}

/** Every row of the demo scored by a probe fitted afresh on `observations` (sorted), in Node. */
function refit(observations: number[], epsilon: number, strength: number): ProbeScores {
  const rows = [...observations].sort((a, b) => a - b);
  const probe = engine.fitProbe({
    observations: gather(demo.embeddings, rows),
    labels: Uint8Array.from(rows, (r) => demo.labels[r]),
    epsilon,
    strength,
  });
  try {
    return probe.score(demo.embeddings);
  } finally {
    probe.dispose();
  }
}

/** The centres of the points of one colour in an exported plot (path "M(x - r),y a..." per point). */
function pointCentres(svg: string, color: string): { x: number; y: number }[] {
  const path = new RegExp(`<path fill="${color}" fill-opacity="0.7" d="([^"]*)"/>`).exec(svg);
  expect(path, `the ${color} points`).not.toBeNull();
  const radius = Number(/a([\d.]+),/.exec(path![1])![1]);
  return [...path![1].matchAll(/M(-?[\d.]+),(-?[\d.]+)a/g)].map((m) => ({ x: Number(m[1]) + radius, y: Number(m[2]) }));
}

/** The largest distance (pixels) of points from a + b value along one axis, a and b fitted through the first and last point. */
function worstOffLine(pixels: number[], values: number[]): number {
  const i = values.indexOf(Math.min(...values)),
    j = values.indexOf(Math.max(...values));
  const slope = (pixels[j] - pixels[i]) / (values[j] - values[i]);
  return Math.max(...pixels.map((p, k) => Math.abs(p - (pixels[i] + slope * (values[k] - values[i])))));
}

describe('toggling an observation', () => {
  it("updates every score by a rank-one update, and the page shows a fresh fit's numbers", async () => {
    await page.goto(baseUrl);
    await waitForResults(page);
    const before = await savedSession();
    // The first row of the table that is not an observation becomes one.
    const box = page.locator('table.results tbody input[aria-label^="Observation"]:not(:checked)').first();
    const row = Number((await box.getAttribute('aria-label'))!.split(' ')[1]);
    const judgedCanvas = page.locator('[data-testid="judged-plot"] canvas[role="img"]');
    const drawsBefore = Number(await judgedCanvas.getAttribute('data-draws'));
    // Which changes come in the same batch of DOM mutations (one task): the new scores' summary and the
    // plot's redraw must, or the points would show a frame after the table and the summary.
    await page.evaluate(() => {
      const w = window as unknown as { __batches: string[][] };
      w.__batches = [];
      new MutationObserver((records) => {
        const kinds = new Set<string>();
        for (const r of records) {
          const element = (r.target instanceof Element ? r.target : r.target.parentElement)!;
          if (
            r.type === 'attributes' &&
            r.attributeName === 'data-draws' &&
            element.closest('[data-testid="judged-plot"]')
          )
            kinds.add('judged drawn');
          if (
            element.closest('[data-testid="run-summary"]') &&
            /rank-one update/.test(element.closest('[data-testid="run-summary"]')!.textContent ?? '')
          )
            kinds.add('summary');
        }
        if (kinds.size) w.__batches.push([...kinds].sort());
      }).observe(document.body, {
        subtree: true,
        attributes: true,
        attributeFilter: ['data-draws'],
        childList: true,
        characterData: true,
      });
    });
    await box.click();
    await expect.poll(async () => (await savedSession()).observations.includes(row)).toBe(true);
    await waitForResults(page);
    // The new scores redraw the judged-probability plot once: the prior's views (its envelope) do not
    // follow a change of the observations.
    await page.waitForTimeout(slow(400));
    expect(Number(await judgedCanvas.getAttribute('data-draws'))).toBe(drawsBefore + 1);
    const batches = await page.evaluate(() => (window as unknown as { __batches: string[][] }).__batches);
    expect(batches.find((b) => b.includes('judged drawn'))).toEqual(['judged drawn', 'summary']);
    const summary = page.getByTestId('run-summary');
    expect(await summary.textContent()).toContain('updated: +1 −0 observations, every score by a rank-one update');
    // The embeddings and the OOD set were both followed by rank-one updates: no full pass.
    expect(await summary.getAttribute('data-full-passes')).toBe('0');

    const after = await savedSession();
    expect(after.observations.length).toBe(before.observations.length + 1);
    const expected = refit(after.observations, after.epsilon, after.strength);
    const before_ = refit(before.observations, before.epsilon, before.strength);

    // The exported results: every measure of every shown row equals the fresh fit's to 1e-9.
    const [header, ...lines] = (await download('Export results (CSV)'))
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const col = (name: string) => header.indexOf(name);
    const columns: [string, keyof ProbeScores][] = [
      ['judged_probability', 'judgedProbability'],
      ['episteme', 'episteme'],
      ['alea', 'alea'],
      ['knowledge', 'knowledge'],
      ['ood_score', 'oodScore'],
      ['latent_mean', 'latentMean'],
      ['latent_variance', 'latentVariance'],
    ];
    let worst = 0;
    for (const cells of lines) {
      const r = Number(cells[col('row')]);
      for (const [name, key] of columns) worst = Math.max(worst, Math.abs(Number(cells[col(name)]) - expected[key][r]));
    }
    expect(lines.length).toBeGreaterThan(100);
    expect(worst).toBeLessThan(1e-9);
    const shown = lines.map((cells) => Number(cells[col('row')]));
    expect(lines.find((cells) => Number(cells[col('row')]) === row)![col('is_observation')]).toBe('1');

    // The judged-probability plot draws the fresh fit's numbers: each point's centre lies on the line
    // through the new scores (to the SVG's 0.01 px), and not on the line through the old ones.
    const svg = await download('Export Judged probability vs episteme as SVG');
    const offLine = (scores: ProbeScores) => {
      let worstPixels = 0;
      for (const [color, label] of [
        [NEGATIVE, 0],
        [POSITIVE, 1],
      ] as const) {
        const rows = shown.filter((r) => demo.labels[r] === label);
        const centres = pointCentres(svg, color);
        expect(centres.length).toBe(rows.length);
        worstPixels = Math.max(
          worstPixels,
          worstOffLine(
            centres.map((p) => p.x),
            rows.map((r) => scores.episteme[r]),
          ),
          worstOffLine(
            centres.map((p) => p.y),
            rows.map((r) => scores.judgedProbability[r]),
          ),
        );
      }
      return worstPixels;
    };
    expect(offLine(expected)).toBeLessThan(0.05);
    expect(offLine(before_)).toBeGreaterThan(0.5);
  });
});
