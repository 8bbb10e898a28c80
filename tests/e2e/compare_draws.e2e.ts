// Compare over draws of the observations in Chromium on the built app, against the CLI: the bundled digits
// layers (with their OOD sets), every value of closed_loop, the lab's default of 20 draws seeded by the
// demo's draw (8 per class, seed 1). The row of concept closed_loop = 1 has the sentence and, in the exported
// CSV, every column after `embedding` and `concept` that `gpprobe compare --draws 20` wrote for it, to 1e-12
// relative (tests/reference/compare/digits_layers_closed_loop_1_ood_draws.csv, written by the native CLI:
//   D=web/public/demo/digits_layers; gpprobe compare --embeddings $D/layer_{0_pixels,1_hidden,2_hidden,3_logits}.npy
//   --ood $D/ood_layer_{...}.npy --labels web/public/demo/digits/metadata.csv --concepts closed_loop=1
//   --per-class 8 --seed 1 --draws 20 --out ...csv 2> ...jsonl).
// On these draws single draws' DeLong tests call layers 1, 2 and 3 best; the app calls none of them better
// than layer 1 or 2 and says what the result is conditional on.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserPerFile, downloadText, SHOTS, waitForResults, patient } from './browser.ts';

const baseUrl = inject('baseUrl');
const browser = browserPerFile(new URL(baseUrl).origin);
const REFERENCE_CSV = 'tests/reference/compare/digits_layers_closed_loop_1_ood_draws.csv';
const REFERENCE_JSONL = 'tests/reference/compare/digits_layers_closed_loop_1_ood_draws.jsonl';
let page: Page;

beforeEach(async () => {
  page = browser.page;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(baseUrl);
  await waitForResults(page);
});

describe('Compare over draws of the observations', () => {
  it("gives the CLI's draws, tests and sentence on the digits layers, and says what they are conditional on", async () => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    await page.getByRole('button', { name: 'Load the digits layers demo' }).click();
    await page.getByTestId('compare-representations').waitFor();
    expect(await page.getByTestId('compare-draws').inputValue()).toBe('20');
    // Draws that are not a whole number from 1 to 1000 are refused with a message, the text kept on screen
    // and the setting kept (they used to revert without a word); a good value clears the message.
    for (const [typed, problem] of [
      ['abc', "draws: 'abc' is not accepted; give a whole number from 1 to 1000; still 20"],
      ['0', "draws: '0' is not accepted; give a whole number from 1 to 1000; still 20"],
      ['2.5', "draws: '2.5' is not accepted; give a whole number from 1 to 1000; still 20"],
    ]) {
      await page.getByTestId('compare-draws').fill(typed);
      await page.getByTestId('compare-draws').dispatchEvent('change');
      expect(await page.getByTestId('compare-draws-problem').textContent()).toBe(problem);
      expect(await page.getByTestId('compare-draws').inputValue()).toBe(typed);
    }
    await page.getByTestId('compare-draws').fill('20');
    await page.getByTestId('compare-draws').dispatchEvent('change');
    expect(await page.getByTestId('compare-draws-problem').count()).toBe(0);
    // "every value of" offers a label column first (the demo's `digit`, 10 values), not the row index.
    await page.getByRole('radio', { name: 'every value of' }).check();
    expect(await page.getByLabel('grid column').inputValue()).toBe('digit');
    await page.getByLabel('grid column').selectOption('closed_loop');
    await page.getByRole('button', { name: 'Compare', exact: true }).click();
    await page.getByTestId('compare-grid').waitFor({ timeout: patient(180_000) });
    await page.getByTestId('compare-grid').getByRole('button', { name: 'closed_loop = 1' }).click();

    const cli = JSON.parse(readFileSync(REFERENCE_JSONL, 'utf8')) as { sentence: string };
    const sentence = (await page.getByTestId('compare-sentence').textContent())!;
    expect(sentence).toBe(cli.sentence);
    expect(sentence).toMatch(/^Layers 1–2 are indistinguishable at 99 %/);
    expect(sentence).toContain('Conditional on these 1,797 labelled rows');
    expect(await page.getByTestId('compare-summary').textContent()).toContain('20 draws of the observations');
    expect(await page.getByTestId('compare-draw-mean').count()).toBe(4);
    await page.screenshot({ path: `${SHOTS}/compare-draws.png` });
    await page.screenshot({ path: `${SHOTS}/compare-draws-full.png`, fullPage: true });

    const csv = (await downloadText(page, 'Export table (CSV)')).trim().split('\n');
    const reference = readFileSync(REFERENCE_CSV, 'utf8').trim().split('\n');
    expect(csv[0]).toBe(reference[0]);
    const header = reference[0].split(',');
    const concept = header.indexOf('concept');
    const rows = csv.slice(1).filter((line) => line.split(',')[concept] === 'closed_loop = 1');
    expect(rows.length).toBe(4);
    // Every cell but the names: text (verdicts, counts) exactly, numbers to 1e-12 relative (the browser's
    // wasm and the native CLI round the last bits of a few sums differently).
    rows.forEach((line, r) => {
      const ours = line.split(','),
        cli = reference[r + 1].split(',');
      expect(ours.length).toBe(cli.length);
      cli.forEach((cell, j) => {
        if (j === 0 || j === concept) return;
        const y = Number(cell);
        if (cell === '' || !/^-?[0-9.]+(e[-+]?[0-9]+)?$/.test(cell) || Number.isInteger(y))
          expect(ours[j], `row ${r} ${header[j]}`).toBe(cell);
        else
          expect(Math.abs(Number(ours[j]) - y), `row ${r} ${header[j]}: ${ours[j]} vs ${cell}`).toBeLessThanOrEqual(
            1e-12 * Math.abs(y),
          );
      });
    });
  });
});
