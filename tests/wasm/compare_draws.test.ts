// engine.compareRepresentations over draws of the observations against the CLI: on the bundled digits
// layers (concept closed_loop, 8 per class, seed 3, 20 draws), the Compare lab's CSV of the engine's result
// is `gpprobe compare --draws 20`'s CSV byte for byte, and the sentence is the CLI's. The reference files
// were written by the native CLI (not by this code):
//   D=web/public/demo/digits_layers; gpprobe compare --embeddings $D/layer_0_pixels.npy $D/layer_1_hidden.npy \
//     $D/layer_2_hidden.npy $D/layer_3_logits.npy --labels $D/metadata.csv --concepts closed_loop \
//     --per-class 8 --seed 3 --draws 20 --out tests/reference/compare/digits_layers_closed_loop_draws.csv \
//     2> tests/reference/compare/digits_layers_closed_loop_draws.jsonl
// On these draws one draw's own DeLong test calls layer 1 best at 99 % (2 of the 20 do) while the test
// across the draws, Holm-corrected, finds layers 1 and 2 indistinguishable: the app must not call either better.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, GpprobeError, type ProbeEngine } from '../../web/src/engine/index.ts';
import { parseNpy } from '../../web/src/io/npy.ts';
import { compareCsv } from '../../web/src/labs/compare/ui/compare_csv.ts';

const DIR = 'web/public/demo/digits_layers/';
const NAMES = ['layer_0_pixels', 'layer_1_hidden', 'layer_2_hidden', 'layer_3_logits'];

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});

function digitsLayers() {
  // Named as the CLI names them (the paths it was given), so that the CSV's embedding column matches.
  const embeddings = NAMES.map((name) => {
    const a = parseNpy(readFileSync(`${DIR}${name}.npy`), `${name}.npy`);
    return { name: `${DIR}${name}.npy`, embeddings: { data: a.data, rows: a.shape[0], cols: a.shape[1] } };
  });
  const [header, ...lines] = readFileSync(`${DIR}metadata.csv`, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const labels = Uint8Array.from(lines, (cells) => Number(cells[header.indexOf('closed_loop')]));
  return { embeddings, labels };
}

describe('compare over draws of the observations', () => {
  it("gives gpprobe compare --draws 20's CSV and sentence on the digits layers", async () => {
    const { embeddings, labels } = digitsLayers();
    const progress: number[] = [];
    const r = await engine.compareRepresentations(
      { embeddings, concepts: [{ name: 'closed_loop', labels }], perClass: 8, seed: 3, draws: 20 },
      { onProgress: (p) => void progress.push(p.done / p.total) },
    );
    // Every cell: text (names, verdicts, counts) exactly, numbers to 1e-12 relative (wasm and native round
    // the last bits of a few sums differently).
    const ours = compareCsv(r).trim().split('\n'),
      cliCsv = readFileSync('tests/reference/compare/digits_layers_closed_loop_draws.csv', 'utf8').trim().split('\n');
    expect(ours[0]).toBe(cliCsv[0]);
    expect(ours.length).toBe(cliCsv.length);
    const header = cliCsv[0].split(',');
    for (let i = 1; i < cliCsv.length; i++) {
      const a = ours[i].split(','),
        b = cliCsv[i].split(',');
      expect(a.length).toBe(b.length);
      b.forEach((cell, j) => {
        const x = Number(a[j]),
          y = Number(cell);
        if (cell === '' || !/^-?[0-9.]+(e[-+]?[0-9]+)?$/.test(cell) || Number.isInteger(y)) {
          expect(a[j], `row ${i} ${header[j]}`).toBe(cell);
        } else {
          expect(Math.abs(x - y), `row ${i} ${header[j]}: ${a[j]} vs ${cell}`).toBeLessThanOrEqual(1e-12 * Math.abs(y));
        }
      });
    }
    const cli = JSON.parse(readFileSync('tests/reference/compare/digits_layers_closed_loop_draws.jsonl', 'utf8'));
    const c = r.concepts[0];
    expect(c.sentence).toBe(cli.sentence);
    expect(c.draws.mode).toBe('redraw');
    expect(c.draws.draws).toBe(20);
    expect(c.draws.comparisons).toBe(3);
    // Layer 1: some single draws call it best at 99 %, the test across the draws does not separate it from layer 2.
    expect(c.draws.probes[1].claimedInDraws).toBeGreaterThan(0);
    expect(c.draws.probes[1].indistinguishableFromBest).toBe(true);
    expect(c.sentence).toMatch(/indistinguishable/);
    expect(c.sentence).toMatch(/Conditional on these 1,797 labelled rows/);
    expect(c.draws.probes[0].auroc.length).toBe(20);
    expect(progress.at(-1)).toBeCloseTo(1, 6);
    expect(progress.every((v, i) => i === 0 || v >= progress[i - 1])).toBe(true);
  });

  it('bootstraps given observations, stops when cancelled and refuses a draw count out of range', async () => {
    const { embeddings, labels } = digitsLayers();
    const observations = [0, 2, 3, 6, 8, 9, 10, 16, 1, 4, 5, 7, 11, 12, 13, 14].filter((i) => i < labels.length);
    const r = await engine.compareRepresentations({
      embeddings: embeddings.slice(0, 2),
      concepts: [{ name: 'closed_loop', labels, observations }],
      draws: 5,
    });
    expect(r.concepts[0].draws.mode).toBe('bootstrap');
    expect(Array.from(r.concepts[0].observations)).toEqual(observations);
    const controller = new AbortController();
    const cancelled = await engine
      .compareRepresentations(
        { embeddings, concepts: [{ name: 'closed_loop', labels }], draws: 20 },
        { signal: controller.signal, onProgress: () => void controller.abort() },
      )
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(cancelled).toBeInstanceOf(GpprobeError);
    expect((cancelled as GpprobeError).code).toBe('cancelled');
    const refused = await engine
      .compareRepresentations({ embeddings, concepts: [{ name: 'closed_loop', labels }], draws: 0 })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect((refused as GpprobeError).message).toBe('draws must be a whole number from 1 to 10000, got 0');
  });
});
