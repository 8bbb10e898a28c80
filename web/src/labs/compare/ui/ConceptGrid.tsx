// The concept × representation grid (the paper's Fig. 4): a cell per (concept, representation) coloured
// by the chosen measure of its probe (viridis; the number printed in it), every probe with the same
// observation budget; a click opens that probe in the Probe tab.
import { ScrollBox } from '../../../common/ui/ScrollBox.tsx';
import { useState } from 'preact/hooks';
import type {
  ConceptComparison,
  RepresentationComparison,
  RepresentationProbe,
} from '../../../engine/compare/compare_representations.ts';
import { MEASURE_PALETTE } from '../../../common/plots/colors.ts';
import { openInProbe, shownConcept } from '../state/compare_store.ts';

type Measure = keyof RepresentationProbe | 'drawMean';
const MEASURES: { key: Measure; label: string; range: [number, number] | null }[] = [
  { key: 'drawMean', label: 'mean AUROC over the draws', range: [0.5, 1] },
  { key: 'basisAuroc', label: 'AUROC (held-out, else LOO), first draw', range: [0.5, 1] },
  { key: 'meanEpisteme', label: 'mean episteme', range: null },
  { key: 'decidedFraction', label: 'decided share', range: [0, 1] },
];

const drawnOf = (c: ConceptComparison) => c.draws.mode !== 'none' && c.draws.probes.length === c.probes.length;

/** The measure of probe k of concept c (the draws' mean when the comparison ran over draws). */
function valueOf(c: ConceptComparison, k: number, key: Measure): number {
  if (key === 'drawMean') return drawnOf(c) ? c.draws.probes[k].mean : Number.NaN;
  return c.probes[k][key] as number;
}

export function ConceptGrid({ comparison }: { comparison: RepresentationComparison }) {
  const drawn = comparison.concepts.some(drawnOf);
  const measures = drawn ? MEASURES : MEASURES.slice(1);
  const [measure, setMeasure] = useState(0);
  const m = measures[Math.min(measure, measures.length - 1)];
  const values = comparison.concepts
    .flatMap((c) => c.probes.map((_, k) => valueOf(c, k, m.key)))
    .filter(Number.isFinite);
  const [lo, hi] = m.range ?? [Math.min(...values), Math.max(...values)];
  const colour = (v: number) => {
    if (!Number.isFinite(v)) return '#f0f2f4';
    const t = Math.max(0, Math.min(1, (v - lo) / (hi - lo || 1)));
    return MEASURE_PALETTE[Math.min(MEASURE_PALETTE.length - 1, Math.floor(t * MEASURE_PALETTE.length))];
  };
  const names = comparison.concepts[0].probes.map((p) => p.name);
  return (
    <section class="card compare-grid-card" aria-label="Concept × representation grid">
      <header class="card-header">
        <h2>Concept × representation</h2>
        <label class="field compact">
          <span>colour by</span>
          <select aria-label="grid measure" value={measure} onChange={(e) => setMeasure(Number(e.currentTarget.value))}>
            {measures.map((x, i) => (
              <option value={i}>{x.label}</option>
            ))}
          </select>
        </label>
      </header>
      <ScrollBox label="the grid of concepts by representation" testId="compare-grid-scroll">
        <table class="compare-grid" data-testid="compare-grid">
          <thead>
            <tr>
              <th />
              {names.map((n) => (
                <th title={n}>{n}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {comparison.concepts.map((c, ci) => (
              <tr>
                <th>
                  <button
                    type="button"
                    class="link"
                    onClick={() => {
                      shownConcept.value = ci;
                    }}
                  >
                    {c.concept}
                  </button>
                </th>
                {c.probes.map((p, k) => {
                  const v = valueOf(c, k, m.key);
                  const best = c.basis !== 'none' && k === (drawnOf(c) ? c.draws.best : c.best);
                  const background = colour(v);
                  const t = Number.isFinite(v) ? (v - lo) / (hi - lo || 1) : 0;
                  return (
                    <td>
                      <button
                        type="button"
                        class="grid-cell"
                        data-testid={`compare-cell-${ci}-${k}`}
                        style={{ background, color: t > 0.6 ? '#111' : '#fff' }}
                        title={`${c.concept} in ${p.name}: open this probe in the Probe tab`}
                        onClick={() => void openInProbe(ci, k)}
                      >
                        {Number.isFinite(v)
                          ? m.key === 'decidedFraction'
                            ? `${(100 * v).toFixed(0)} %`
                            : v.toFixed(3)
                          : '–'}
                        {best ? ' ★' : ''}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <p class="caption">
        Every probe of a row uses the same observations (N per class of the sidebar's draw, its seed; over draws, the
        same draws in every column); ★ the best of the row (over draws: the highest mean). Click a cell to open that
        probe in the Probe tab; click a concept to show its table and profile.
      </p>
    </section>
  );
}
