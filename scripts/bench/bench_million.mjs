// Benchmark: a million embeddings dropped on the built app (dist/app) in Debian's Chromium, streamed from
// the file (io/streamed_dataset.ts). Writes 1,000,000 x 768 float32 (3 GB, scripts/bench/million_npy.mjs) and
// its labels to a temporary directory (deleted afterwards), uploads them, and reports
//   drop -> first results   until the run summary shows the new dataset's scores
//   drop -> settled         until every task (map sample, verdict pass) is done
//   toggle -> results       one observation toggled in the table: a new pass over the file
//   peak memory             the highest resident set (VmHWM, /proc) of the page's renderer process (the
//                           tab: page and engine worker), and of all Chromium processes together,
//                           sampled every 200 ms, against the same right after the demo loaded
// Not part of `npm test`; `npm run bench` runs it when GPPROBE_BENCH_MILLION=1. Options:
//   node scripts/bench/bench_million.mjs [--rows 1000000] [--dimension 768]
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { label, writeByteColumn, writeEmbeddings } from './million_npy.mjs';
import { launchChromium, openWhenServed, servePreview } from './preview_app.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const rows = Number(args.rows ?? 1_000_000);
const dimension = Number(args.dimension ?? 768);
const GB = 2 ** 30;

/** Resident memory (kB) by process: current (VmRSS) and peak (VmHWM), with its command line. */
function processes() {
  const out = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      out.push({
        pid: Number(pid),
        ppid,
        cmd,
        rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0),
        hwm: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0),
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** The Chromium processes this script started (its descendants; the preview server's are not Chromium). */
function chromiumTree(root) {
  const all = processes();
  const ids = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all)
      if (!ids.has(p.pid) && ids.has(p.ppid)) {
        ids.add(p.pid);
        grew = true;
      }
  }
  return all.filter((p) => ids.has(p.pid) && p.pid !== root && /chrom/i.test(p.cmd));
}

const dir = mkdtempSync(join(tmpdir(), 'gpprobe-million-'));
const app = servePreview();
let browser;
try {
  let t = Date.now();
  writeEmbeddings(join(dir, 'million.npy'), rows, dimension);
  writeByteColumn(join(dir, 'labels.npy'), rows, label);
  console.log(
    `wrote ${rows} × ${dimension} float32 (${((rows * dimension * 4) / GB).toFixed(2)} GB) in ${((Date.now() - t) / 1000).toFixed(1)} s`,
  );

  browser = await launchChromium();
  const root = process.pid;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await openWhenServed(page, app.url);
  const settled = () =>
    page.waitForFunction(
      () => !document.querySelector('.task-bar') && document.querySelector('[data-testid="run-summary"]:not(.stale)'),
      undefined,
      { timeout: 900_000 },
    );
  await settled();
  const renderers = () => chromiumTree(root).filter((p) => p.cmd.includes('--type=renderer'));
  const baseline = {
    tab: Math.max(...renderers().map((p) => p.rss)),
    all: chromiumTree(root).reduce((s, p) => s + p.rss, 0),
  };
  const peak = { tab: 0, all: 0 };
  const sample = () => {
    const tree = chromiumTree(root);
    peak.tab = Math.max(
      peak.tab,
      ...tree.filter((p) => p.cmd.includes('--type=renderer')).map((p) => Math.max(p.rss, p.hwm)),
    );
    peak.all = Math.max(
      peak.all,
      tree.reduce((s, p) => s + p.rss, 0),
    );
  };
  const sampler = setInterval(sample, 200);

  t = Date.now();
  await page
    .locator('input[aria-label="Embeddings files"]')
    .setInputFiles([join(dir, 'million.npy'), join(dir, 'labels.npy')]);
  await page.waitForFunction(
    (n) => {
      const summary = document.querySelector('[data-testid="run-summary"]');
      return summary?.textContent?.includes(n) && !summary.classList.contains('stale');
    },
    rows.toLocaleString('en-US'),
    { timeout: 900_000 },
  );
  const first = (Date.now() - t) / 1000;
  const summary = await page.getByTestId('run-summary').textContent();
  await settled();
  const all = (Date.now() - t) / 1000;
  const alerts = await page.locator('.message.error').allTextContents();
  if (alerts.length) throw new Error(`the app reported: ${alerts.join(' | ')}`);

  // Toggle one observation: the probe changes, and the file is read again.
  const before = await page.getByTestId('run-summary').textContent();
  t = Date.now();
  await page.locator('table.results tbody input[aria-label^="Observation"]').nth(1).click();
  await page.waitForFunction(
    (previous) => {
      const s = document.querySelector('[data-testid="run-summary"]');
      return s && s.textContent !== previous && !s.classList.contains('stale');
    },
    before,
    { timeout: 900_000 },
  );
  const toggle = (Date.now() - t) / 1000;
  await settled();
  clearInterval(sampler);
  sample();

  const gb = (kb) => (kb / 2 ** 20).toFixed(2);
  console.log(`app: ${rows.toLocaleString('en-US')} × ${dimension} float32 streamed from the file`);
  console.log(`  drop -> first results ${first.toFixed(1)} s (${summary?.trim()})`);
  console.log(`  drop -> every task done (map sample, verdict pass) ${all.toFixed(1)} s`);
  console.log(`  toggle one observation -> new results ${toggle.toFixed(1)} s (the file read again)`);
  console.log(
    `  peak memory: tab (renderer: page + engine worker) ${gb(peak.tab)} GB (${gb(baseline.tab)} GB with the demo); ` +
      `all Chromium processes ${gb(peak.all)} GB (${gb(baseline.all)} GB with the demo)`,
  );
} finally {
  await browser?.close();
  app.stop();
  rmSync(dir, { recursive: true, force: true });
}
