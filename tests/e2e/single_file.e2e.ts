// The one-file page (docs/embed.md, "One file"), written by gpprobe-publish on the bundled digits and
// opened from file:// with every network request aborted: results appear, they are the CLI's
// (`gpprobe probe` on the same observations, `gpprobe draw` for the rows the session's draw asks for) to
// 1e-12, toggling an observation updates them, a link's session is the page's; the same file works from
// a static host; hostile data inside a file are refused with the readers' messages.
// Needs dist/single (node scripts/make/build_single.mjs) and build/native/gpprobe.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLink } from '../../web/src/app/share_link.ts';
import { DEFAULT_SESSION, type Session } from '../../web/src/common/state/session.ts';
import { encodeDataBlock, fillTemplate } from '../../web/src/single/one_file_format.ts';
import { browserPerFile, patient } from './browser.ts';
import { serveStatic } from './static_server.ts';

const BIN = 'dist/single/gpprobe-publish.mjs';
const TEMPLATE = 'dist/single/gpprobe.html';
const CLI = 'build/native/gpprobe';
const EMB = 'web/public/demo/digits/embeddings.npy';
const META = 'web/public/demo/digits/metadata.csv';
const COLS = 64;
const MEASURES = [
  ['judgedProbability', 'judged_probability'],
  ['episteme', 'episteme'],
  ['alea', 'alea'],
  ['latentMean', 'latent_mean'],
  ['latentVariance', 'latent_variance'],
  ['knowledge', 'knowledge'],
  ['oodScore', 'ood_score'],
] as const;

const dir = mkdtempSync(join(tmpdir(), 'gpprobe-one-file-'));
let server: Server | null = null;
let hostUrl = '';
const pages = browserPerFile(() => ['file://', hostUrl].filter(Boolean));

beforeAll(async () => {
  for (const needed of [BIN, TEMPLATE, CLI])
    if (!existsSync(needed)) throw new Error(`${needed} is missing: run scripts/make/build.sh (build_single.mjs)`);
  const served = await serveStatic(dir, '');
  server = served.server;
  hostUrl = served.url;
});
afterAll(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  rmSync(dir, { recursive: true, force: true });
});

function publish(name: string, ...args: string[]): string {
  const out = join(dir, name);
  execFileSync('node', [BIN, '--embeddings', EMB, '--metadata', META, ...args, '--out', out], { encoding: 'utf8' });
  return out;
}

interface Results {
  rows: number;
  observations: number[];
  observationLabels: number[];
  epsilon: number;
  strength: number;
  concept: unknown;
  scores: Record<string, number[]>;
}

/** Opens `url` with every request but file:, data: and blob: aborted (and counted); the page's events recorded. */
async function open(page: Page, url: string, allow: string[] = []): Promise<string[]> {
  const aborted: string[] = [];
  await page.route('**/*', (route) => {
    const at = route.request().url();
    if (['file:', 'data:', 'blob:', ...allow].some((p) => at.startsWith(p))) return route.continue();
    aborted.push(at);
    return route.abort();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { results: unknown[]; errors: unknown[] };
    w.results = [];
    w.errors = [];
    document.addEventListener('gpprobe-results', (e) => {
      const d = (e as CustomEvent).detail as Results;
      w.results.push({
        ...d,
        scores: Object.fromEntries(Object.entries(d.scores).map(([k, v]) => [k, Array.from(v as ArrayLike<number>)])),
      });
    });
    document.addEventListener('gpprobe-error', (e) => w.errors.push((e as CustomEvent).detail));
  });
  await page.goto(url);
  return aborted;
}

async function resultsAfter(page: Page, count: number): Promise<Results> {
  await page.waitForFunction((n) => (window as unknown as { results: unknown[] }).results.length > n, count, {
    timeout: patient(90_000),
  });
  return page.evaluate(() => {
    const r = (window as unknown as { results: Results[] }).results;
    return r[r.length - 1];
  });
}

const resultCount = (page: Page) => page.evaluate(() => (window as unknown as { results: unknown[] }).results.length);

/** A float32 .npy of rows `rows` of the digits' embeddings (their bytes as stored). */
function observationsNpy(rows: number[], path: string): void {
  const npy = readFileSync(EMB);
  const header =
    `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows.length}, ${COLS}), }`.padEnd(117, ' ') + '\n';
  const head = Buffer.concat([Buffer.from('\x93NUMPY\x01\x00', 'latin1'), Buffer.from([118, 0]), Buffer.from(header)]);
  writeFileSync(
    path,
    Buffer.concat([head, ...rows.map((r) => npy.subarray(128 + r * COLS * 4, 128 + (r + 1) * COLS * 4))]),
  );
}

/** The CLI's scores of every row for the page's observations and hyperparameters; the largest gap to the page's. */
function gapToCli(r: Results): number {
  observationsNpy(r.observations, join(dir, 'obs.npy'));
  writeFileSync(join(dir, 'labels.txt'), r.observationLabels.join('\n') + '\n');
  const csv = execFileSync(
    CLI,
    [
      'probe',
      '--observations',
      join(dir, 'obs.npy'),
      '--labels',
      join(dir, 'labels.txt'),
      '--queries',
      EMB,
      '--epsilon',
      String(r.epsilon),
      '--strength',
      String(r.strength),
    ],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const [header, ...lines] = csv.trim().split('\n');
  const names = header.split(',');
  expect(lines.length).toBe(r.rows);
  let gap = 0;
  for (const line of lines) {
    const cells = line.split(',');
    const row = Number(cells[0]);
    for (const [ours, theirs] of MEASURES) {
      const expected = Number(cells[names.indexOf(theirs)]);
      const shown = r.scores[ours][row];
      expect(Number.isFinite(shown)).toBe(true);
      gap = Math.max(gap, Math.abs(shown - expected));
    }
  }
  return gap;
}

/** The rows `gpprobe draw` takes for the concept closed_loop = 1 on the digits. */
function cliDraw(perClass: number, seed: number): number[] {
  const labels = readFileSync(META, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => (l.split(',')[3] === '1' ? 1 : 0));
  writeFileSync(join(dir, 'all_labels.txt'), labels.join('\n') + '\n');
  const out = execFileSync(
    CLI,
    ['draw', '--labels', join(dir, 'all_labels.txt'), '--per-class', String(perClass), '--seed', String(seed)],
    { encoding: 'utf8' },
  );
  return out
    .trim()
    .split(/\s+/)
    .filter((t) => /^\d+$/.test(t))
    .map(Number)
    .sort((a, b) => a - b);
}

describe('one-file page', () => {
  it('computes from file:// offline: the draw, the numbers and a toggle are the CLI’s', async () => {
    const file = publish('drawn.html', '--concept', 'closed_loop=1', '--per-class', '6', '--seed', '3');
    const page = pages.page;
    const aborted = await open(page, pathToFileURL(file).href);
    const first = await resultsAfter(page, 0);
    expect(aborted).toEqual([]);
    expect(first.rows).toBe(1797);
    expect(first.concept).toEqual({ column: 'closed_loop', kind: 'values', positives: ['1'] });
    expect([...first.observations].sort((a, b) => a - b)).toEqual(cliDraw(6, 3));
    expect(first.observations.length).toBe(12);
    const gap = gapToCli(first);
    expect(gap).toBeLessThanOrEqual(1e-12);

    // Toggling an observation (a row of the results table) updates the numbers, which stay the CLI's.
    const before = await resultCount(page);
    await page.locator('table.results tbody input[aria-label^="Observation"]:not(:checked)').first().check();
    const toggled = await resultsAfter(page, before);
    expect(toggled.observations.length).toBe(13);
    const toggledGap = gapToCli(toggled);
    expect(toggledGap).toBeLessThanOrEqual(1e-12);
    expect(toggled.scores.judgedProbability).not.toEqual(first.scores.judgedProbability);
    await expect(page.getByRole('note', { name: 'About this page' }).textContent()).resolves.toMatch(
      /Threads, data by URL/,
    );
    // axe (evaluated by the driver: the page's CSP refuses any other script) finds nothing serious.
    await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
    const serious = await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run(d: Document): Promise<{ violations: { id: string; impact: string }[] }> } }
      ).axe;
      return (await axe.run(document)).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
    });
    expect(serious).toEqual([]);
    expect(aborted).toEqual([]);
    console.log(
      `one-file page vs CLI: max |difference| ${gap.toExponential(2)}, after a toggle ${toggledGap.toExponential(2)}`,
    );
  });

  it("opens on a link's session, and works from a static host", async () => {
    const rows = [2, 9, 40, 77, 100, 311, 512, 1000];
    const session: Session = {
      ...DEFAULT_SESSION,
      data: { kind: 'demo', id: 'digits' },
      concept: { column: 'even', kind: 'values', positives: ['1'] },
      observations: rows,
      epsilon: 0.3,
      strength: 2,
    };
    const link = `https://example.org/gpprobe/#${encodeLink({ session, drawn: false, view: { tab: 'probe', colorBy: 'episteme', selected: 40 } })}`;
    publish('linked.html', '--link', link);
    const page = pages.page;
    const aborted = await open(page, `${hostUrl}/linked.html`, [hostUrl]);
    const r = await resultsAfter(page, 0);
    expect(aborted).toEqual([]);
    expect([...r.observations].sort((a, b) => a - b)).toEqual(rows);
    expect(r.epsilon).toBe(0.3);
    expect(r.strength).toBe(2);
    expect(r.concept).toEqual(session.concept);
    expect(gapToCli(r)).toBeLessThanOrEqual(1e-12);
  });

  it('opens a Projector config with its thumbnails, and a page written by Python', async () => {
    const projector = join(dir, 'projector.html');
    execFileSync(
      'node',
      [
        BIN,
        '--embeddings',
        'tests/e2e/fixtures/projector/projector_config.json',
        '--embedding',
        'Digits: pixels',
        '--out',
        projector,
      ],
      { encoding: 'utf8' },
    );
    const page = pages.page;
    await open(page, pathToFileURL(projector).href);
    const r = await resultsAfter(page, 0);
    expect(r.rows).toBe(300);
    // Its sprite sheet decoded (else the notes say "thumbnails are not shown").
    const loaded = page.getByText(/^Loaded Digits: pixels: 300 rows × 64 dimensions/).first();
    await loaded.waitFor();
    expect(await loaded.textContent()).not.toMatch(/thumbnails|sprite/);

    // The data block as docs/embed.md's Python writes it (the standard library's zlib and base64).
    const python = join(dir, 'python.html');
    execFileSync('python3', [
      '-c',
      `
import base64, json, struct, sys, zlib
template, emb, meta, out = sys.argv[1:]
files = [("embeddings.npy", open(emb, "rb").read()), ("metadata.csv", open(meta, "rb").read())]
state = {"v": 1, "concept": {"column": "ge5", "kind": "values", "positives": ["1"]}, "rows": [0, 1, 5, 6, 9, 14], "epsilon": 0.2}
header = json.dumps({"format": "gpprobe-one-file", "version": 1,
                     "files": [{"name": n, "size": len(b), "role": "main"} for n, b in files], "state": state}).encode("utf-8")
block = b"GPPROBE\x01" + struct.pack("<I", len(header)) + header + zlib.compress(b"".join(b for _, b in files), 9)
marker = '<script type="application/octet-stream" id="gpprobe-data"></script>'
html = open(template, encoding="utf-8").read()
assert html.count(marker) == 1
open(out, "w", encoding="utf-8").write(html.replace(marker, marker.replace("></", ">" + base64.b64encode(block).decode("ascii") + "</")))
`,
      TEMPLATE,
      EMB,
      META,
      python,
    ]);
    const second = await pages.context.newPage();
    await open(second, pathToFileURL(python).href);
    const p = await resultsAfter(second, 0);
    expect(p.observations).toEqual([0, 1, 5, 6, 9, 14]);
    expect(p.epsilon).toBe(0.2);
    expect(gapToCli(p)).toBeLessThanOrEqual(1e-12);
  });

  const template = () => readFileSync(TEMPLATE, 'utf8');
  const npy = () => readFileSync(EMB);
  const meta = () => readFileSync(META);
  const hostile: [string, () => Promise<string>, RegExp][] = [
    [
      'a data block cut off',
      async () => {
        const html = readFileSync(publish('whole.html'), 'utf8');
        const m = /(<script type="application\/octet-stream" id="gpprobe-data">)([A-Za-z0-9+/=]*)(<\/script>)/.exec(
          html,
        )!;
        const cut = m[2].slice(0, Math.floor(m[2].length / 8) * 4);
        return html.replace(m[0], `${m[1]}${cut}${m[3]}`);
      },
      /damaged or cut off/,
    ],
    [
      'a non-finite embedding',
      async () => {
        const bad = Buffer.from(npy());
        bad.writeFloatLE(Number.POSITIVE_INFINITY, 128 + 4 * (5 * COLS + 7));
        return fillTemplate(
          template(),
          await encodeDataBlock([
            { name: 'embeddings.npy', role: 'main', bytes: bad },
            { name: 'metadata.csv', role: 'main', bytes: meta() },
          ]),
        );
      },
      /embeddings\.npy: element \[5, 7\] is \+Inf/,
    ],
    [
      'metadata of another row count',
      async () => {
        const lines = meta().toString('utf8').trim().split('\n');
        return fillTemplate(
          template(),
          await encodeDataBlock([
            { name: 'embeddings.npy', role: 'main', bytes: npy() },
            { name: 'metadata.csv', role: 'main', bytes: Buffer.from(lines.slice(0, 51).join('\n') + '\n') },
          ]),
        );
      },
      /metadata\.csv: has 50 rows.*1797/,
    ],
    [
      'a Parquet file built to hang its reader (stopped in its parse worker)',
      async () =>
        fillTemplate(
          template(),
          await encodeDataBlock([
            {
              name: 'hang.parquet',
              role: 'main',
              bytes: readFileSync('tests/reference/hostile/bitpacked_hang.parquet'),
            },
          ]),
        ),
      /hang\.parquet: the parquet reader did not finish within/,
    ],
    [
      'a .npy whose header lies about its shape',
      async () => {
        const bad = Buffer.from(npy());
        bad.write('(1797, 65)', bad.indexOf('(1797, 64)'), 'latin1');
        return fillTemplate(template(), await encodeDataBlock([{ name: 'embeddings.npy', role: 'main', bytes: bad }]));
      },
      /embeddings\.npy: /,
    ],
  ];
  for (const [what, make, message] of hostile) {
    it(`refuses ${what} with a message`, async () => {
      const path = join(dir, 'hostile.html');
      writeFileSync(path, await make());
      const page = pages.page;
      await open(page, pathToFileURL(path).href);
      const banner = page.locator('.one-file-banner.failed');
      await banner.waitFor({ timeout: patient(60_000) });
      await expect(banner.textContent()).resolves.toMatch(message);
      const errors = await page.evaluate(() => (window as unknown as { errors: { message: string }[] }).errors);
      expect(errors.length).toBe(1);
      expect(errors[0].message).toMatch(message);
      expect(await resultCount(page)).toBe(0);
    });
  }
});
