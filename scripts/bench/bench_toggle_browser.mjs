// Benchmark: in the built app (dist/app) in Debian's Chromium, toggle one observation of a large
// embedding set and time the click until every view shows the updated run (the run summary is current
// and the frame after the last plot's redraw has come; no plot redraws in the three frames after it),
// split into the part until the worker's
// result reaches the page and the page's part after it. Run with `npm run bench` or
//   node scripts/bench/bench_toggle_browser.mjs [--rows 200000] [--dimension 384] [--toggles 5]
// Writes the embeddings (float32 .npy) and their labels to a temporary directory and uploads them.
// --isolation 1 serves the page with COOP/COEP (the engine's threaded module; default 0: one thread).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium, openWhenServed, servePreview } from './preview_app.mjs';
import { npyHeader } from './million_npy.mjs';

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const rows = Number(args.rows ?? 200000);
const dimension = Number(args.dimension ?? 384);
const toggles = Number(args.toggles ?? 5);
const isolation = args.isolation ?? '0';

function npy(descr, shape, bytes) {
  return Buffer.concat([npyHeader(descr, shape), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
}

// Two seeded Gaussian classes (a 32-bit LCG, exact through Math.imul, and Box-Muller: the benchmark needs
// size, not realism).
let state = 12345;
const uniform = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) + 0.5) / 4294967296;
const x = new Float32Array(rows * dimension),
  labels = new BigInt64Array(rows);
for (let i = 0; i < rows; i++) {
  labels[i] = BigInt(i % 2);
  for (let j = 0; j < dimension; j++) {
    const z = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
    x[i * dimension + j] = z + (i % 2 && j < 8 ? 1 : 0);
  }
}
const dir = mkdtempSync(join(tmpdir(), 'gpprobe-bench-'));
writeFileSync(join(dir, 'emb.npy'), npy('<f4', [rows, dimension], x));
writeFileSync(join(dir, 'kind.npy'), npy('<i8', [rows], labels));

const app = servePreview({ isolation });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // When each result message of the engine worker reaches the page (the split between worker and page).
  await page.addInitScript(() => {
    window.__gpprobeResults = [];
    window.__gpprobeRequests = [];
    const Original = window.Worker;
    window.Worker = class extends Original {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (e.data?.type === 'result') window.__gpprobeResults.push({ kind: e.data.kind, at: performance.now() });
        });
      }

      postMessage(message, ...rest) {
        if (message?.type === 'request')
          window.__gpprobeRequests.push({ kind: message.request?.kind, at: performance.now() });
        return super.postMessage(message, ...rest);
      }
    };
  });
  await openWhenServed(page, app.url);
  const settled = () =>
    page.waitForFunction(
      () => !document.querySelector('.task-bar') && document.querySelector('[data-testid="run-summary"]'),
      undefined,
      { timeout: 600_000 },
    );
  await settled();
  let start = Date.now();
  await page
    .locator('input[aria-label="Embeddings files"]')
    .setInputFiles([join(dir, 'emb.npy'), join(dir, 'kind.npy')]);
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="run-summary"]')?.textContent?.includes(n),
    rows.toLocaleString('en-US'),
    { timeout: 600_000 },
  );
  await settled();
  const threads = await page.locator('.engine-threads').textContent();
  console.log(
    `app: ${rows} × ${dimension} float32 loaded, drawn and probed in ${((Date.now() - start) / 1000).toFixed(1)} s; engine on ${threads}`,
  );
  const times = [],
    workerMs = [],
    mainMs = [],
    verdictMs = [];
  for (let t = 0; t < toggles; t++) {
    const box = page.locator(`table.results tbody input[aria-label^="Observation"]`).nth(t + 1);
    // Click → the probe's result message arrives (worker: the update, the measures, the transfer) →
    // the frame that shows the last plot redrawn (main thread: stores, every plot, the table); then,
    // apart, until the verdict (leave-one-out, what to label next) has followed.
    const split = await box.evaluate(
      (element) =>
        new Promise((resolve) => {
          const arrivals = window.__gpprobeResults,
            requests = window.__gpprobeRequests;
          const seen = arrivals.length,
            asked = requests.length;
          // Every redraw of a plot's points counts up its canvas's data-draws (PlotView): the last one after
          // the click is the last plot to follow, and the frame after it is the one that shows it.
          let lastDraw = -Infinity;
          const observer = new MutationObserver(() => {
            lastDraw = performance.now();
          });
          observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-draws'] });
          const t0 = performance.now();
          element.click();
          let shown = 0,
            calm = 0;
          // The new run is there when the worker's probe result has arrived and the summary is current (its
          // text alone can repeat: two toggles of the same kind scored in the same milliseconds read alike).
          // Then the first frame after the last draw shows every plot and the table; three more frames with no
          // draw make sure no plot follows later.
          const giveUp = setTimeout(() => {
            observer.disconnect();
            resolve({ total: NaN, asked: NaN, arrived: NaN, verdict: NaN });
          }, 60_000);
          const check = () => {
            const now = performance.now();
            const summary = document.querySelector('[data-testid="run-summary"]');
            const arrived = arrivals.slice(seen).some((a) => a.kind === 'probe');
            if (summary && arrived && !summary.classList.contains('stale')) {
              if (!shown || lastDraw > shown) {
                shown = now;
                calm = 0;
              } else calm++;
            }
            if (shown && calm >= 3 && !document.querySelector('.task-bar')) {
              const arrival = arrivals.slice(seen).find((a) => a.kind === 'probe');
              const request = requests.slice(asked).find((a) => a.kind === 'probe');
              clearTimeout(giveUp);
              observer.disconnect();
              resolve({
                total: shown - t0,
                asked: (request?.at ?? NaN) - t0,
                arrived: (arrival?.at ?? NaN) - t0,
                verdict: now - t0,
              });
            } else {
              requestAnimationFrame(check);
            }
          };
          requestAnimationFrame(check);
        }),
    );
    if (Number.isNaN(split.total)) throw new Error(`toggle ${t + 1}: no new run within 60 s of the click`);
    times.push(split.total);
    workerMs.push(split.arrived);
    mainMs.push(split.total - split.arrived);
    verdictMs.push(split.verdict);
    console.log(
      `  toggle ${t + 1}: ${split.total.toFixed(0)} ms (the page asked the worker at ${split.asked.toFixed(0)} ms; until the result arrived ${split.arrived.toFixed(0)} ms, then drawn in ${(split.total - split.arrived).toFixed(0)} ms; verdict followed at ${split.verdict.toFixed(0)} ms) — ${await page.getByTestId('run-summary').textContent()}`,
    );
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(0);
  console.log(
    `toggle one observation at ${rows} × ${dimension} in Chromium (${threads}): median ${median(times)} ms click → every plot and the table redrawn ` +
      `(worker + message ${median(workerMs)} ms, main thread ${median(mainMs)} ms; verdict panel followed at ${median(verdictMs)} ms)`,
  );
} finally {
  await browser.close();
  app.stop();
  rmSync(dir, { recursive: true, force: true });
}
