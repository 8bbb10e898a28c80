// Explain in the app, timed as a user meets it: the built app (dist/app, `vite preview` with the COOP/COEP
// headers, so the engine runs threaded) in Debian's Chromium; the Classification tab's model A (the app's default:
// Laplace, probit, s2 = 1, every l = 1) on the first N rows of a CSV of 14 × 14 images (default
// web/public/demo/robustness/fashion_pullover_coat.csv, N = 1,000: the robustness paper's MNIST scale), then
// "Explain point 0" at the panel's defaults (γ = 0.25 on [0, 1], tolerance 1e-3, LIME 2,000 samples, every pixel).
// Prints one JSON line: the engine's threads (the badge in the header), the seconds the app reports for the
// explanation (measured in the engine's worker), the wall seconds from the click to the drawn maps, the CPU seconds
// of Chromium's processes over that span (user + system, from /proc: on a shared machine CPU time is inflated far
// less than wall time), and the load average before and after.
// --lime-samples N sets the panel's LIME field first (2: LIME all but off, to time the certified Δ alone).
//   npx vite build && node scripts/bench/bench_explain_app.mjs [--data FILE] [--rows 1000] [--repeats 1]
//        [--lime-samples N]
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { launchChromium, openWhenServed, servePreview } from './preview_app.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1] ?? '']] : pairs), []),
);
const DATA = args.data || 'web/public/demo/robustness/fashion_pullover_coat.csv';
const ROWS = Number(args.rows ?? 1000);
const REPEATS = Number(args.repeats ?? 1);
const TICKS = 100; // USER_HZ on Linux

/** User + system CPU seconds of this process's descendants that are alive now (Chromium and its children). */
function descendantsCpu() {
  const parent = new Map(),
    cpu = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // the process ended while being read
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let p = parent.get(pid); p; p = parent.get(p)) {
      if (p === process.pid) {
        total += seconds;
        break;
      }
    }
  }
  return total;
}

const lines = readFileSync(DATA, 'utf8').trim().split('\n');
const csv = lines.slice(0, ROWS + 1).join('\n') + '\n';
const app = servePreview({ isolation: '1' });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openWhenServed(page, app.url);
  const idle = () =>
    page.waitForFunction(() => !document.querySelector('.task-bar'), undefined, { timeout: 3_600_000 });
  await page.getByRole('tab', { name: 'Classification' }).click();
  await page
    .getByTestId('model-A-evidence')
    .filter({ hasText: 'log marginal likelihood' })
    .waitFor({ timeout: 600_000 });
  await idle();
  const threads = (await page.locator('.engine-threads').textContent())?.trim();
  const fitStart = Date.now();
  await page
    .locator('input[aria-label="Classification CSV file"]')
    .setInputFiles([{ name: 'data.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) }]);
  const panel = page.getByTestId('explain-panel');
  await panel.filter({ hasText: '14 × 14 images' }).waitFor({ timeout: 3_600_000 });
  await idle();
  const fitWall = (Date.now() - fitStart) / 1000;
  if (args['lime-samples']) {
    await panel.getByLabel('explain lime samples').fill(args['lime-samples']);
    await panel.getByLabel('explain lime samples').press('Tab');
  }
  const runs = [];
  for (let r = 0; r < REPEATS; r++) {
    const load = loadavg()[0];
    const cpu0 = descendantsCpu();
    const t0 = Date.now();
    await panel.getByRole('button', { name: 'Explain point 0' }).click();
    const local = page.getByTestId('explain-local');
    await local.filter({ hasText: ' ms' }).waitFor({ timeout: 3_600_000 });
    await idle();
    const wall = (Date.now() - t0) / 1000;
    const cpu = descendantsCpu() - cpu0;
    const text = (await local.textContent()) ?? '';
    const reported = [...text.matchAll(/(\d+) ms/g)].map((m) => Number(m[1]) / 1000);
    runs.push({
      app_seconds: reported.at(-1) ?? null,
      wall_seconds: wall,
      chromium_cpu_seconds: cpu,
      load_before: load,
      load_after: loadavg()[0],
    });
  }
  console.log(
    JSON.stringify({
      data: DATA,
      rows: ROWS,
      features: lines[0].split(',').length - 1,
      threads,
      lime_samples: Number(await panel.getByLabel('explain lime samples').inputValue()),
      fit_wall_seconds: fitWall,
      runs,
    }),
  );
} finally {
  await browser.close();
  app.stop();
}
