// A probe to take away: the app's "Export probe" file, fitted again by the CLI
// (`gpprobe probe --probe FILE --queries EMBEDDINGS`) and by the library (`engine.loadProbe`), scores
// every query with the numbers of the app's results CSV.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createProbeEngine, type ProbeEngine } from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { browserPerFile, downloadText, waitForResults } from './browser.ts';

const baseUrl = inject('baseUrl');
const pages = browserPerFile(new URL(baseUrl).origin);
const MEASURES = ['judged_probability', 'episteme', 'alea', 'latent_mean', 'latent_variance', 'knowledge', 'ood_score'];

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

function table(text: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = text
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  return { header, rows };
}

describe('export probe', () => {
  it("gives a file the CLI and the library score with the app's numbers", async () => {
    const page = pages.page;
    await page.goto(baseUrl);
    await waitForResults(page);
    // Change the probe so the file cannot hold the defaults by chance: ε, and one observation more.
    await page.getByLabel('epsilon', { exact: true }).fill('0.4');
    await page.getByLabel('epsilon', { exact: true }).press('Enter');
    await waitForResults(page);
    await page.locator('table.results tbody input[aria-label^="Observation"]:not(:checked)').first().check();
    await waitForResults(page);
    const app = table(await downloadText(page, 'Export results (CSV)'));
    const fileText = await downloadText(page, 'Export probe');
    const file = engine.readProbeFile(fileText);
    expect(file.epsilon).toBe(0.4);
    expect(file.strength).toBe(5);
    expect(file.labels.length).toBe(17);
    expect(file.observations.data).toBeInstanceOf(Float32Array);
    expect(new Set(file.observationRows).size).toBe(17);
    for (const r of app.rows.filter((cells) => cells[1] === '1')) expect(file.observationRows).toContain(Number(r[0]));
    expect(file.data).toMatchObject({
      name: 'Handwritten digits through a trained network',
      rows: 1797,
      cols: 64,
      dtype: 'float32',
    });
    // The data's id is the SHA-256 of the embeddings as the .npy stores them (numpy: x.tobytes()).
    const npy = readFileSync('web/public/demo/digits/embeddings.npy');
    const x = parseNpy(npy, 'embeddings.npy');
    const { createHash } = await import('node:crypto');
    expect(file.data!.sha256).toBe(
      createHash('sha256')
        .update(new Uint8Array(x.data.buffer, x.data.byteOffset, x.data.byteLength))
        .digest('hex'),
    );

    // The CLI, on all 1,797 rows; the app's CSV lists the test rows by their row number.
    const dir = mkdtempSync(join(tmpdir(), 'gpprobe-probe-'));
    writeFileSync(join(dir, 'digits.probe.json'), fileText);
    const cli = table(
      execFileSync(
        'build/native/gpprobe',
        ['probe', '--probe', join(dir, 'digits.probe.json'), '--queries', 'web/public/demo/digits/embeddings.npy'],
        { encoding: 'utf8' },
      ),
    );
    rmSync(dir, { recursive: true, force: true });
    expect(cli.rows.length).toBe(1797);
    const library = engine.loadProbe(new TextEncoder().encode(fileText));
    const scores = library.score({ data: x.data, rows: x.shape[0], cols: x.shape[1] });
    library.dispose();
    const keys = [
      'judgedProbability',
      'episteme',
      'alea',
      'latentMean',
      'latentVariance',
      'knowledge',
      'oodScore',
    ] as const;
    let cliGap = 0,
      libraryGap = 0;
    for (const r of app.rows) {
      const row = Number(r[0]);
      MEASURES.forEach((m, k) => {
        const shown = Number(r[app.header.indexOf(m)]);
        const printed = Number(cli.rows[row][cli.header.indexOf(m)]);
        cliGap = Math.max(cliGap, Math.abs(printed - shown));
        libraryGap = Math.max(libraryGap, Math.abs(scores[keys[k]][row] - shown));
      });
    }
    // Native (-march=native) and wasm builds of the same core differ in the last bits only.
    expect(cliGap).toBeLessThanOrEqual(1e-12);
    expect(libraryGap).toBeLessThanOrEqual(1e-12);
    console.log(
      `probe file: CLI vs app max |difference| ${cliGap.toExponential(2)}, library vs app ${libraryGap.toExponential(2)}`,
    );
  });
});
