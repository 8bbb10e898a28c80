// The concept × representation grid (the paper's Fig. 4): a cell per (concept, representation) coloured
// by the chosen measure of its probe (viridis; the number printed in it), every probe with the same
// observation budget; a click opens that probe in the Probe tab.
import { ScrollBox } from '../../../common/ui/ScrollBox.tsx';
import { useState } from 'preact/hooks';
import type { RepresentationComparison, RepresentationProbe } from '../../../engine/compare/compare_representations.ts';
import { MEASURE_PALETTE } from '../../../common/plots/colors.ts';
import { openInProbe, shownConcept } from '../state/compare_store.ts';

const MEASURES: { key: keyof RepresentationProbe; label: string; range: [number, number] | null }[] = [
  { key: 'basisAuroc', label: 'AUROC (held-out, else LOO)', range: [0.5, 1] },
  { key: 'meanEpisteme', label: 'mean episteme', range: null },
  { key: 'decidedFraction', label: 'decided share', range: [0, 1] },
];

export function ConceptGrid({ comparison }: { comparison: RepresentationComparison }) {
  const [measure, setMeasure] = useState(0);
  const m = MEASURES[measure];
  const values = comparison.concepts.flatMap((c) => c.probes.map((p) => p[m.key] as number)).filter(Number.isFinite);
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
            {MEASURES.map((x, i) => (
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
                  const v = p[m.key] as number;
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
                        {c.basis !== 'none' && k === c.best ? ' ★' : ''}
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
        Every probe of a row uses the same observations (N per class of the sidebar's draw, its seed); ★ the best of the
        row. Click a cell to open that probe in the Probe tab; click a concept to show its table and profile.
      </p>
    </section>
  );
}
