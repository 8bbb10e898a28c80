// The built app (dist/app) served by `vite preview` as `npm start` serves it, and Debian's Chromium to
// open it, for the benchmarks that drive the app itself (bench_toggle_browser, bench_evaluation_app,
// bench_million).
//   const app = servePreview({ isolation: '1' });   // '0': without COOP/COEP (one thread)
//   const browser = await launchChromium();
//   const page = await browser.newPage();
//   await openWhenServed(page, app.url);
//   ... finally: await browser.close(); app.stop();
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

export function servePreview({ isolation } = {}) {
  const port = 4300 + Math.floor(Math.random() * 500);
  const env = isolation === undefined ? process.env : { ...process.env, GPPROBE_ISOLATION: isolation };
  const server = spawn('npx', ['vite', 'preview', '--port', String(port), '--strictPort'], {
    stdio: 'ignore',
    detached: true,
    env,
  });
  return { url: `http://127.0.0.1:${port}/`, stop: () => process.kill(-server.pid) };
}

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
  });
}

/** Opens `url` once the server answers (it takes a few seconds to start). */
export async function openWhenServed(page, url) {
  for (let t = 0; ; t++) {
    try {
      await page.goto(url);
      return;
    } catch (error) {
      if (t > 60) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
