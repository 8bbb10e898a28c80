// The evaluation lab as a user runs it: the built app (dist/app, served by `vite preview` as `npm start`
// serves it) in Debian's Chromium on the bundled demo, each experiment with its defaults (10 trials;
// probing with the GPC probes up to O = 128), the seconds the app reports under the results. Twice:
// cross-origin isolated (the threaded module, what `npm start` serves) and without the headers (one
// thread, as a plain static host or an iframe gets it). After scripts/make/build.sh:
//   node scripts/bench/bench_evaluation_app.mjs
import { launchChromium, openWhenServed, servePreview } from './preview_app.mjs';

const RUNS = [
  ['Probing', 'Run probing'],
  ['Fuzzy concepts', 'Run fuzzy concepts'],
  ['Out-of-distribution', 'Run out-of-distribution'],
];

async function timeApp(isolation) {
  const app = servePreview({ isolation });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await openWhenServed(page, app.url);
    await page.getByTestId('run-summary').waitFor({ timeout: 120_000 });
    const threads = (await page.locator('.engine-threads').textContent()).trim();
    await page.getByRole('tab', { name: 'Evaluate' }).click();
    const rows = [];
    for (const [tab, button] of RUNS) {
      await page.getByRole('group', { name: 'Experiment' }).getByRole('button', { name: tab }).click();
      await page.getByRole('region', { name: 'Experiment settings' }).getByRole('button', { name: button }).click();
      await page.getByTestId('evaluation-summary').waitFor({ timeout: 300_000 });
      await page.waitForFunction(() => !document.querySelector('.eval-progress'), undefined, { timeout: 300_000 });
      const summary = await page.getByTestId('evaluation-summary').textContent();
      rows.push({ threads, experiment: tab, seconds: Number(/· ([0-9.]+) s$/.exec(summary)[1]) });
    }
    return rows;
  } finally {
    await browser.close();
    app.stop();
  }
}

console.log(
  'the evaluation lab in the app, the demo (closed loops), defaults (10 trials) | engine | seconds the app reports',
);
for (const isolation of ['1', '0']) {
  for (const r of await timeApp(isolation)) console.log(`${r.experiment} | ${r.threads} | ${r.seconds.toFixed(1)} s`);
}
