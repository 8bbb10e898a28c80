// Benchmark: in the built app (dist/app) in Debian's Chromium, toggle one observation of a large
// embedding set and time the click until every view shows the updated run (the run summary says
// "updated: +1" and two animation frames have been drawn). Run with `npm run bench` or
//   node scripts/bench_toggle_browser.mjs [--rows 200000] [--dimension 384] [--toggles 5]
// Writes the embeddings (float32 .npy) and their labels to a temporary directory and uploads them.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const rows = Number(args.rows ?? 200000);
const dimension = Number(args.dimension ?? 384);
const toggles = Number(args.toggles ?? 5);
const port = 4300 + Math.floor(Math.random() * 500);

function npy(descr, shape, bytes) {
  let header = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
}

// Two seeded Gaussian classes (a small LCG and Box-Muller: the benchmark needs size, not realism).
let state = 12345;
const uniform = () => ((state = (state * 1103515245 + 12345) >>> 0) + 0.5) / 4294967296;
const x = new Float32Array(rows * dimension), labels = new BigInt64Array(rows);
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

const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], { stdio: 'ignore', detached: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let t = 0; ; t++) {
    try {
      await page.goto(`http://127.0.0.1:${port}/`);
      break;
    } catch (error) {
      if (t > 60) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  const settled = () => page.waitForFunction(() => !document.querySelector('.task-bar') && document.querySelector('[data-testid="run-summary"]'), undefined, { timeout: 600_000 });
  await settled();
  let start = Date.now();
  await page.locator('input[aria-label="Embeddings files"]').setInputFiles([join(dir, 'emb.npy'), join(dir, 'kind.npy')]);
  await page.waitForFunction((n) => document.querySelector('[data-testid="run-summary"]')?.textContent?.includes(n), rows.toLocaleString('en-US'), { timeout: 600_000 });
  await settled();
  console.log(`app: ${rows} × ${dimension} float32 loaded, drawn and probed in ${((Date.now() - start) / 1000).toFixed(1)} s`);
  const times = [];
  for (let t = 0; t < toggles; t++) {
    const box = page.locator(`table.results tbody input[aria-label^="Observation"]`).nth(t + 1);
    const before = await page.getByTestId('run-summary').textContent();
    const ms = await box.evaluate((element, previous) => new Promise((resolve) => {
      const t0 = performance.now();
      element.click();
      const check = () => {
        const summary = document.querySelector('[data-testid="run-summary"]');
        if (summary && summary.textContent !== previous && !summary.classList.contains('stale') && !document.querySelector('.task-bar')) {
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - t0)));
        } else {
          requestAnimationFrame(check);
        }
      };
      requestAnimationFrame(check);
    }), before);
    times.push(ms);
    console.log(`  toggle ${t + 1}: ${ms.toFixed(0)} ms — ${await page.getByTestId('run-summary').textContent()}`);
  }
  times.sort((a, b) => a - b);
  console.log(`toggle one observation at ${rows} × ${dimension} in Chromium: median ${times[Math.floor(times.length / 2)].toFixed(0)} ms (click → every view redrawn)`);
} finally {
  await browser.close();
  process.kill(-server.pid);
  rmSync(dir, { recursive: true, force: true });
}
