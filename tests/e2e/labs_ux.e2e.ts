// The labs as a first-time user meets them, in Chromium: what a form does with input it cannot use
// (refused with the reason, never certified), fields and model agreeing after a cancelled fit, long work's
// progress and Cancel in view, hyperparameters reset on new data, a fit at a bound said, the anomaly
// controls beside the plots they recolour, the evaluation lab's explanations, and the maps' legends.
// Every test also checks: no console errors, and no request leaves the page's origin.
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { browserPerFile, patient } from './browser.ts';
import { openTab } from './tabs.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);

let page: Page;
beforeEach(() => {
  page = pages.page;
});

const idle = () =>
  page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: patient(150_000) });

async function fill(label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.press('Tab');
}

/** The error messages shown, newest last. */
const alerts = () => page.getByRole('alert').allTextContents();

describe('robustness inputs (Classification tab)', () => {
  it('refuses an empty or negative gamma, a bad sweep list and no moving coordinate, saying why, and never certifies them', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    const card = page.getByTestId('robustness-A');
    await fill('x* x1', '0.5');
    await fill('x* x2', '-0.25');
    const certify = page.getByRole('button', { name: 'Certify', exact: true });
    for (const typed of ['', '-1']) {
      await fill('gamma', typed);
      expect(await page.getByLabel('gamma', { exact: true }).inputValue()).toBe(typed); // what was typed stays
      expect(await page.getByLabel('gamma', { exact: true }).getAttribute('aria-invalid')).toBe('true');
      await certify.click();
      await expect
        .poll(alerts)
        .toContainEqual(
          expect.stringContaining(
            typed === '' ? 'Not certified: gamma is empty' : 'Not certified: gamma: -1 is below 0',
          ),
        );
      expect(await card.count()).toBe(0); // no certificate, not even a running one
      expect(await page.getByTestId('robustness-problems').textContent()).toContain('gamma');
    }
    // A gamma the user gives is certified with that gamma.
    await fill('gamma', '0.3');
    expect(await page.getByTestId('robustness-problems').count()).toBe(0);
    await certify.click();
    await expect.poll(() => card.getAttribute('data-state'), { timeout: patient(60_000) }).toBe('done');
    expect(await card.getByTestId('robustness-root').textContent()).toContain('x* ± 0.3000');

    // The sweep's list: an entry that is not a number is named, the list typed stays, the sweep is refused.
    await fill('sweep gammas', '0, abc, 0.5');
    expect(await page.getByLabel('sweep gammas').inputValue()).toBe('0, abc, 0.5');
    await page.getByRole('button', { name: 'Run sweep' }).click();
    await expect
      .poll(alerts)
      .toContainEqual(expect.stringContaining("No sweep: sweep gammas: 'abc' is not a number ≥ 0"));
    expect(await page.getByTestId('sweep-A').count()).toBe(0);
    await fill('sweep gammas', '0, 0.5');

    // Unticking every moving coordinate: both stay unticked, the form says why nothing can be certified.
    await page.getByLabel('x1 moves').uncheck();
    await page.getByLabel('x2 moves').uncheck();
    expect(await page.getByLabel('x1 moves').isChecked()).toBe(false);
    expect(await page.getByLabel('x2 moves').isChecked()).toBe(false);
    expect(await page.getByTestId('robustness-problems').textContent()).toContain('no moving coordinate is ticked');
    const before = await card.getByTestId('robustness-root').textContent();
    await certify.click();
    await expect.poll(alerts).toContainEqual(expect.stringContaining('Not certified: no moving coordinate is ticked'));
    expect(await card.getByTestId('robustness-root').textContent()).toBe(before);
    await page.getByLabel('x2 moves').check();
    expect(await page.getByTestId('robustness-problems').count()).toBe(0);
    await idle();
  });

  it('refuses an empty gamma in the Probe tab\'s "Certify within γ" too', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Probe');
    const panel = page.getByTestId('certify-panel');
    await panel.getByLabel('certify gamma').fill('');
    await panel.getByLabel('certify gamma').press('Tab');
    await panel.getByRole('button', { name: /^Certify row/ }).click();
    await expect.poll(alerts).toContainEqual(expect.stringContaining('Not certified: certify gamma is empty'));
    expect(await panel.getByTestId('certify-result').count()).toBe(0);
  });
});

/** The regression lab's fields (their exact values) and the model the fit summary reports, by name. */
async function fieldsAndModel(): Promise<{ fields: Record<string, string>; model: Record<string, string> }> {
  return page.evaluate(() => {
    const fields: Record<string, string> = {},
      model: Record<string, string> = {};
    for (const input of Array.from(
      document.querySelectorAll<HTMLInputElement>('section[aria-labelledby="regression-kernel-heading"] input.number'),
    )) {
      fields[input.getAttribute('aria-label')!] =
        input.value === String(Number(Number(input.dataset.value).toPrecision(4)))
          ? input.dataset.value!
          : `typed ${input.value}`;
    }
    const summary = document.querySelector('[data-testid="fit-summary"]');
    for (const dt of Array.from(summary?.querySelectorAll('dt') ?? [])) {
      const dd = dt.nextElementSibling as HTMLElement | null;
      if (dd?.dataset.value !== undefined) model[dt.textContent!] = dd.dataset.value;
    }
    return { fields, model };
  });
}

/** Presses "Fit hyperparameters" (the field being typed in loses focus first, as with a pointer) and
 * Cancel as soon as the task bar offers it, in the page: the lecture's fit is too quick to catch otherwise. */
async function fitAndCancel(blur = true): Promise<void> {
  const cancelled = await page.evaluate(async (blurFirst) => {
    if (blurFirst) (document.activeElement as HTMLElement | null)?.blur();
    const fit = Array.from(document.querySelectorAll('button')).find(
      (b) => b.textContent?.trim() === 'Fit hyperparameters',
    )!;
    fit.click();
    for (let k = 0; k < 200; k++) {
      const cancel = document.querySelector<HTMLButtonElement>('.task-bar button');
      if (cancel) {
        cancel.click();
        return true;
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    return false;
  }, blur);
  expect(cancelled, 'the fit was still running to cancel').toBe(true);
}

describe('fields and model (Regression tab)', () => {
  it('never disagree: typed values with a fit cancelled at once, and text left in a field when a fit starts (cancelled, or ending)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Regression');
    const agree = async () => {
      await idle();
      await expect
        .poll(
          async () => {
            const { fields, model } = await fieldsAndModel();
            return Object.entries(fields)
              .filter(([name, value]) => model[name] !== value)
              .map(([name, value]) => `${name}: field ${value}, model ${model[name]}`);
          },
          { timeout: patient(30_000) },
        )
        .toEqual([]);
      await expect.poll(() => page.getByTestId('fit-summary').getAttribute('class')).toBe('fit-summary'); // not marked stale
    };
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect
      .poll(() => page.getByTestId('fit-summary').textContent(), { timeout: patient(60_000) })
      .toContain('L-BFGS iterations');
    await agree();
    await fill('rbf.length_scale', '2');
    await agree();
    // Typed values, then at once a fit, cancelled: the fields keep the typed values and the model follows them.
    for (const [name, value] of [
      ['constant.value', '1'],
      ['rbf.length_scale', '1'],
      ['noise_variance', '0.1'],
    ]) {
      await page.getByLabel(name, { exact: true }).fill(value);
    }
    await fitAndCancel();
    await agree();
    const { fields } = await fieldsAndModel();
    expect([fields['constant.value'], fields['rbf.length_scale'], fields.noise_variance]).toEqual(['1', '1', '0.1']);
    // A value typed but not entered (the field still focused) when a fit starts, which is then cancelled:
    // the fit ran from the model's values, and the field shows them again, not the text left in it.
    await page.getByLabel('rbf.length_scale', { exact: true }).fill('3');
    await fitAndCancel(false);
    await agree();
    // And when the fit ends with learned values instead.
    await page.getByLabel('rbf.length_scale', { exact: true }).fill('3');
    await page.evaluate(() =>
      Array.from(document.querySelectorAll('button'))
        .find((b) => b.textContent?.trim() === 'Fit hyperparameters')!
        .click(),
    );
    await agree();
  });
});

/** Where the task bar and its Cancel are, against the window: true when both are wholly inside it. */
const taskBarInView = () =>
  page.evaluate(() => {
    const bar = document.querySelector('.task-bar'),
      cancel = bar?.querySelector('button');
    if (!bar || !cancel) return 'no task bar';
    const inside = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
    };
    return inside(bar) && inside(cancel)
      ? 'in view'
      : `out of view: ${JSON.stringify(bar.getBoundingClientRect())} in ${window.innerHeight}`;
  });

describe('long work in view', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('keeps progress and Cancel on screen wherever the page is scrolled, at %i × %i', async (width, height) => {
    await page.setViewportSize({ width, height });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    await fill('restarts', '20');
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    for (const y of ['bottom', 'top', 'middle'] as const) {
      await page.evaluate(
        (at) =>
          window.scrollTo(
            0,
            at === 'top'
              ? 0
              : at === 'bottom'
                ? document.documentElement.scrollHeight
                : document.documentElement.scrollHeight / 2,
          ),
        y,
      );
      expect(await taskBarInView(), `scrolled to the ${y}`).toBe('in view');
    }
    await page.locator('.task-bar').getByRole('button', { name: 'Cancel' }).click();
    await idle();
  });
});

/** The notices shown. */
const notices = () => page.locator('.message').allTextContents();

describe('hyperparameters and new data', () => {
  it('Classification: values set for one dataset go back to the defaults for the next, said; Reset does it by hand', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    const variance = page.getByLabel('Model A signal variance', { exact: true });
    await variance.fill('586');
    await variance.press('Tab');
    await page.getByLabel('Model B signal variance', { exact: true }).fill('100000');
    await page.getByLabel('Model B signal variance', { exact: true }).press('Tab');
    await idle();
    const examples = page.getByLabel('Classification example');
    const other = await examples.locator('option').nth(1).getAttribute('value');
    await examples.selectOption(other!);
    await expect.poll(() => variance.getAttribute('data-value'), { timeout: patient(30_000) }).toBe('1');
    expect(await page.getByLabel('Model B signal variance', { exact: true }).getAttribute('data-value')).toBe('1');
    expect(await notices()).toContainEqual(
      expect.stringContaining("New data: both models' hyperparameters are back at their defaults"),
    );
    await idle();
    await variance.fill('3');
    await variance.press('Tab');
    await page.getByRole('button', { name: "Reset both models' hyperparameters to the defaults" }).click();
    await expect.poll(() => variance.getAttribute('data-value')).toBe('1');
    await idle();
  });

  it("Regression: a CSV does not inherit the example's or a fitted noise; Reset goes back to the data's starting values", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Regression');
    const noise = page.getByLabel('noise_variance', { exact: true }),
      lengthScale = page.getByLabel('rbf.length_scale', { exact: true });
    await noise.fill('0.00001');
    await noise.press('Tab');
    await lengthScale.fill('7');
    await lengthScale.press('Tab');
    const lines = Array.from({ length: 40 }, (_, i) => `${i / 4},${Math.sin(i / 4)}`);
    await page
      .locator('input[aria-label="Regression CSV file"]')
      .setInputFiles([{ name: 'sine.csv', mimeType: 'text/csv', buffer: Buffer.from(`x,y\n${lines.join('\n')}\n`) }]);
    await expect
      .poll(() => page.getByTestId('regression-summary').textContent(), { timeout: patient(60_000) })
      .toMatch(/^sine\.csv/);
    expect(await noise.getAttribute('data-value')).toBe('0.1'); // the core's default noise
    expect(await lengthScale.getAttribute('data-value')).toBe('1'); // the kernel's starting value
    expect(await page.getByLabel('hold constant.value').isChecked()).toBe(false);
    expect(await notices()).toContainEqual(
      expect.stringContaining("New data: the kernel's hyperparameters and the noise are back at their starting values"),
    );
    await idle();
    await lengthScale.fill('4');
    await lengthScale.press('Tab');
    await page.getByRole('button', { name: "Reset to the data's starting values" }).click();
    await expect.poll(() => lengthScale.getAttribute('data-value')).toBe('1');
    await idle();
  });
});

describe('a fit at a bound', () => {
  it("Classification: says when EP's signal variance stops at the optimiser's bound 1e5", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    await page.getByLabel('Classification example').selectOption('xor');
    await expect
      .poll(() => page.getByTestId('classification-summary').textContent(), { timeout: patient(30_000) })
      .toMatch(/^XOR/i);
    await idle();
    await page.getByRole('button', { name: 'Fit hyperparameters' }).click();
    await expect.poll(() => page.getByTestId('classification-learned').count(), { timeout: patient(60_000) }).toBe(1);
    await idle();
    expect(await page.getByTestId('learned-B').locator('td').first().getAttribute('data-value')).toBe(
      '100000.00000000001',
    );
    expect(await page.getByTestId('classification-at-bound').textContent()).toContain(
      "B: the signal variance stopped at the fit's upper bound 1e5: the classes are separated",
    );
    expect(await page.getByTestId('classification-at-bound').textContent()).not.toContain('A:');
  });
});

/** Whether each element is wholly inside the window. */
const inView = (selectors: string[]) =>
  page.evaluate(
    (list) =>
      list.map((s) => {
        const e = document.querySelector(s);
        if (!e) return `${s}: missing`;
        const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth
          ? 'in view'
          : `${s}: ${Math.round(r.top)}..${Math.round(r.bottom)} of ${window.innerHeight}`;
      }),
    selectors,
  );

describe('the anomaly controls', () => {
  it('are on screen together with the plot they recolour at 1280 × 800', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Regression');
    await page.getByLabel('rho slider').scrollIntoViewIfNeeded();
    await page.getByLabel('theta', { exact: true }).scrollIntoViewIfNeeded();
    expect(
      await inView([
        'input[aria-label="rho slider"]',
        'input[aria-label="theta slider"]',
        '[data-testid="regression-fit-plot"] canvas[role="img"]',
      ]),
    ).toEqual(['in view', 'in view', 'in view']);
    // Moving ρ recolours the points there and then: the counts follow.
    const counts = await page.getByTestId('status-counts').textContent();
    await page.getByLabel('rho', { exact: true }).fill('0.99');
    await page.getByLabel('rho', { exact: true }).press('Tab');
    await expect.poll(() => page.getByTestId('status-counts').textContent()).not.toBe(counts);
    expect(
      await inView(['[data-testid="regression-fit-plot"] canvas[role="img"]', 'input[aria-label="rho slider"]']),
    ).toEqual(['in view', 'in view']);
  });
});

describe('the evaluation lab explains its table', () => {
  it('at 390 px: says why GPC is 0.500 ± 0.000 at O = 2 and what the dashes are, hints that the table scrolls, counts trials', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(baseUrl);
    await openTab(page, 'Evaluation');
    await fill('trials', '2');
    await page.getByLabel('max observations').selectOption('16');
    await page.getByLabel('GPC up to O').selectOption('8');
    // The trial count is on the progress from the start.
    const label = page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          const seen = () => document.querySelector('.eval-progress .task-label')?.textContent;
          const watch = new MutationObserver(() => {
            const t = seen();
            if (t) {
              watch.disconnect();
              resolve(t);
            }
          });
          watch.observe(document.body, { childList: true, subtree: true, characterData: true });
        }),
    );
    await page.getByRole('button', { name: 'Run probing' }).click();
    expect(await label).toContain('Running the probing experiment, 2 trials');
    await expect.poll(() => page.getByTestId('probing-table').count(), { timeout: patient(120_000) }).toBe(1);
    await idle();
    const notes = await page.getByTestId('probing-table-note').allTextContents();
    expect(notes.some((n) => n.startsWith('GPC at 0.500 ± 0.000 (O = 2)'))).toBe(true);
    expect(notes).toContainEqual(
      expect.stringContaining('—: GPC was not run at O = 16, above the setting "GPC up to O"'),
    );
    // The table is wider than a phone: it says it scrolls, and does.
    expect(await page.getByTestId('probing-table-scrolls').textContent()).toContain('Scroll the table sideways');
    expect(await page.locator('.eval-table-scroll').evaluate((e) => e.scrollWidth > e.clientWidth)).toBe(true);
  });
});

async function svgOf(title: string): Promise<string> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: patient(60_000) }),
    page.getByRole('button', { name: `Export ${title} as SVG`, exact: true }).click(),
  ]);
  const { readFileSync } = await import('node:fs');
  return readFileSync(await file.path(), 'utf8');
}

describe('the classification maps say what they show', () => {
  it('legends the box and symbols on screen and in exports, tells "found" from p = ½, counts splits per extreme, and gives a verdict after Cancel', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    expect(await page.locator('#classification-fit-heading').locator('..').textContent()).toContain(
      'Rasmussen & Williams',
    );
    await fill('x* x1', '0.5');
    await fill('x* x2', '-0.25');
    await fill('gamma', '1');
    await page.getByRole('button', { name: 'Certify', exact: true }).click();
    for (const side of ['A', 'B'])
      await expect
        .poll(() => page.getByTestId(`robustness-${side}`).getAttribute('data-state'), { timeout: patient(60_000) })
        .toBe('done');
    const map = await svgOf('Laplace (probit): p(y = 1 | x)');
    for (const label of ['box x* ± γ', '>x*<', '>GPFGS<']) expect(map).toContain(label);
    // The witness's diamond, when branch and bound found one, is in the legend as drawn.
    if (map.includes('fill="#009e73"')) expect(map).toContain('>witness<');
    const convergence = await svgOf('Model A: branch and bound');
    for (const label of ['π_min found', 'π_max found', 'p = ½']) expect(convergence).toContain(label);
    expect(convergence).not.toMatch(/>found</);

    // A search that cannot converge (tolerance 0): its progress counts both extremes against their limit each;
    // after Cancel the card says what the intervals reached decide.
    await fill('tolerance', '0');
    await fill('max iterations', '1000000');
    await fill('time limit (s)', '120');
    await fill('gamma', '1.5');
    await page.getByRole('button', { name: 'Certify', exact: true }).click();
    await expect
      .poll(() => page.locator('.task-bar').textContent(), { timeout: patient(60_000) })
      .toContain('boxes split for π_min and π_max together (at most 1,000,000 each)');
    await expect
      .poll(() => page.getByTestId('robustness-A').getByTestId('robustness-status').textContent(), {
        timeout: patient(60_000),
      })
      .toMatch(/after \d+ splits/);
    await page.locator('.task-bar').getByRole('button', { name: 'Cancel' }).click();
    await idle();
    expect(await page.getByTestId('robustness-A').getByTestId('robustness-cancelled-verdict').textContent()).toMatch(
      /^Cancelled/,
    );
  });

  it('keeps the held columns readable on the dark variance map (a halo), on screen and in the SVG', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(baseUrl);
    await openTab(page, 'Classification');
    const rows = Array.from(
      { length: 30 },
      (_, i) => `${(i % 6) / 2},${Math.floor(i / 6) / 2},${(i % 3) / 3},${i % 6 < 3 ? 0 : 1}`,
    );
    await page
      .locator('input[aria-label="Classification CSV file"]')
      .setInputFiles([
        { name: 'three.csv', mimeType: 'text/csv', buffer: Buffer.from(`f1,f2,f3,label\n${rows.join('\n')}\n`) },
      ]);
    await expect
      .poll(() => page.getByTestId('classification-summary').textContent(), { timeout: patient(60_000) })
      .toMatch(/^three\.csv/);
    await idle();
    const svg = await svgOf('Laplace (probit): latent variance');
    expect(svg).toMatch(/<text [^>]*stroke="#ffffff"[^>]*paint-order="stroke"[^>]*>held: f3 = /);
  });
});
