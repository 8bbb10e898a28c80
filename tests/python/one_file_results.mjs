// Opens a page in Debian's Chromium with every request but file:, data: and blob: aborted, waits for the
// first `gpprobe-results` event in any of its frames (a one-file page, or a notebook's output cell holding
// one in an <iframe srcdoc>), and prints that event's detail as JSON with the aborted requests:
//   node tests/python/one_file_results.mjs PAGE.html [--click-observation]
// --click-observation ticks the first unticked observation checkbox of the results table in the frame
// that posted results (a query becomes an observation), and prints the detail of the next event too. Used by tests/python/test_one_file.py.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

const [path, flag] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const aborted = [];
  await page.route('**/*', (route) => {
    const at = route.request().url();
    if (['file:', 'data:', 'blob:', 'about:'].some((p) => at.startsWith(p))) return route.continue();
    aborted.push(at);
    return route.abort();
  });
  // In every frame (the srcdoc iframe of a notebook cell included): record the events.
  await page.addInitScript(() => {
    window.__gpprobeResults = [];
    // Typed arrays (the scores) as plain arrays, so the detail survives JSON.
    const plain = (v) =>
      ArrayBuffer.isView(v)
        ? Array.from(v)
        : v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
          : v;
    document.addEventListener('gpprobe-results', (e) => window.__gpprobeResults.push(plain(e.detail)));
    window.__gpprobeErrors = [];
    document.addEventListener('gpprobe-error', (e) => window.__gpprobeErrors.push(e.detail));
  });
  await page.goto(pathToFileURL(resolve(path)).href);
  const deadline = Date.now() + 240_000;
  const found = async (count) => {
    for (const frame of page.frames()) {
      const got = await frame
        .evaluate(() => ({ results: window.__gpprobeResults ?? [], errors: window.__gpprobeErrors ?? [] }))
        .catch(() => ({ results: [], errors: [] }));
      if (got.errors.length) return { frame, error: got.errors[0] };
      if (got.results.length >= count) return { frame, detail: got.results[count - 1], frames: page.frames().length };
    }
    return null;
  };
  let hit = null;
  while (!(hit = await found(1)) && Date.now() < deadline) await page.waitForTimeout(250);
  if (!hit) throw new Error('no gpprobe-results event within 240 s');
  if (hit.error) {
    console.log(JSON.stringify({ error: hit.error, aborted }));
  } else if (flag === '--click-observation') {
    const before = (await hit.frame.evaluate(() => window.__gpprobeResults.length)) + 1;
    await hit.frame.locator('table.results tbody input[aria-label^="Observation "]:not(:checked)').first().check();
    let next = null;
    while (!(next = await found(before)) && Date.now() < deadline) await page.waitForTimeout(250);
    if (!next) throw new Error('no gpprobe-results event after the click');
    console.log(JSON.stringify({ detail: next.detail, first: hit.detail, aborted, frames: hit.frames }));
  } else {
    console.log(JSON.stringify({ detail: hit.detail, aborted, frames: hit.frames }));
  }
} finally {
  await browser.close();
}
