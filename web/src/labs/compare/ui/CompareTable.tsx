// One concept's comparison as a table: a row per representation with the numbers of its probe, sortable by
// any column (click a header; again to reverse), the best marked and those indistinguishable from it at
// 99 % tinted, each row opening its probe in the Probe tab. Over draws of the observations the mean, spread
// and 99 % interval over the draws and the Holm-corrected test across them come first, and they decide the
// best, the tint and the grey (the first draw's columns follow).
import type {
  ConceptComparison,
  DrawnProbe,
  RepresentationComparison,
  RepresentationProbe,
} from '../../../engine/compare/compare_representations.ts';
import { openInProbe, sort, type SortKey } from '../state/compare_store.ts';
import { positions } from '../plots/profile_plot.ts';

const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : '–');
const interval = (lo: number, hi: number) => (Number.isFinite(lo) ? `${lo.toFixed(3)}–${hi.toFixed(3)}` : '');
const pValue = (p: number) =>
  !Number.isFinite(p) ? '–' : p === 1 ? '1' : p < 1e-4 ? p.toExponential(1) : p.toFixed(4);

const DRAW_COLUMNS: { key: SortKey; label: string; title: string }[] = [
  {
    key: 'drawMean',
    label: 'mean AUROC over draws',
    title:
      "The basis AUROC's mean over the draws of the observations, with the 99 % interval of that mean (spread over draws plus DeLong's variance of the rows measured on)",
  },
  {
    key: 'drawSpread',
    label: 'spread (sd, range)',
    title: 'Standard deviation of the AUROC from draw to draw, and its range (minimum–maximum)',
  },
  {
    key: 'drawHolm',
    label: 'p vs best (Holm)',
    title:
      "A t-test across the draws of the paired AUROC differences from the highest mean, Holm-corrected for the number of comparisons; 'n/R best': in how many draws its own DeLong tests called it best at 99 %",
  },
];

const COLUMNS: { key: SortKey; label: string; title: string }[] = [
  { key: 'position', label: 'representation', title: 'In layer order when the names carry layer numbers' },
  { key: 'width', label: 'width', title: 'Columns of the embedding' },
  {
    key: 'heldoutAuroc',
    label: 'held-out AUROC',
    title:
      'AUROC of the judged probability over every labelled row that is not an observation, with its 99 % interval (DeLong)',
  },
  {
    key: 'looAuroc',
    label: 'LOO AUROC',
    title: 'Leave-one-out AUROC of the observations, with its 99 % interval (DeLong)',
  },
  {
    key: 'meanEpisteme',
    label: 'mean episteme',
    title: 'Mean episteme over the queries (every row that is not an observation)',
  },
  { key: 'meanAlea', label: 'mean alea', title: 'Mean alea over the queries' },
  {
    key: 'decidedFraction',
    label: 'decided',
    title: 'Share of queries judged < 0.1 or > 0.9 with episteme at least that of one observation at its own point',
  },
  {
    key: 'oodAuroc',
    label: 'OOD AUROC',
    title: 'Telling the queries from the OOD set by −latent variance (when the representation has an OOD set)',
  },
  {
    key: 'pValueAgainstBest',
    label: 'p vs best',
    title: "DeLong's paired test against the best representation, on the same rows (two-sided)",
  },
];

function sortValue(p: RepresentationProbe, q: DrawnProbe | null, key: SortKey, position: number): number {
  if (key === 'position') return position;
  if (key === 'drawMean') return q?.mean ?? Number.NaN;
  if (key === 'drawSpread') return q?.standardDeviation ?? Number.NaN;
  if (key === 'drawHolm') return q?.holmPValue ?? Number.NaN;
  return p[key] as number;
}

export function CompareTable({
  comparison,
  concept,
  conceptIndex,
}: {
  comparison: RepresentationComparison;
  concept: ConceptComparison;
  conceptIndex: number;
}) {
  const { key, descending } = sort.value;
  const x = positions(comparison, concept.probes.length);
  const d = concept.draws;
  const drawn = d.mode !== 'none' && d.probes.length === concept.probes.length;
  const q = (k: number): DrawnProbe | null => (drawn ? d.probes[k] : null);
  const columns = drawn ? [COLUMNS[0], ...DRAW_COLUMNS, ...COLUMNS.slice(1)] : COLUMNS;
  const order = concept.probes
    .map((_, k) => k)
    .sort((a, b) => {
      const va = sortValue(concept.probes[a], q(a), key, x[a]),
        vb = sortValue(concept.probes[b], q(b), key, x[b]);
      // NaN (undefined) last either way
      if (Number.isNaN(va) || Number.isNaN(vb)) return Number.isNaN(va) ? (Number.isNaN(vb) ? 0 : 1) : -1;
      return descending ? vb - va : va - vb;
    });
  const setSort = (k: SortKey) => {
    sort.value = {
      key: k,
      descending: key === k ? !descending : k !== 'position' && k !== 'pValueAgainstBest' && k !== 'drawHolm',
    };
  };
  return (
    <table class="compare-table" data-testid="compare-table">
      <thead>
        <tr>
          {columns.map((c) => (
            <th title={c.title} aria-sort={key === c.key ? (descending ? 'descending' : 'ascending') : 'none'}>
              <button type="button" class="link" onClick={() => setSort(c.key)}>
                {c.label}
                {key === c.key ? (descending ? ' ▾' : ' ▴') : ''}
              </button>
            </th>
          ))}
          <th />
        </tr>
      </thead>
      <tbody>
        {order.map((k) => {
          const p = concept.probes[k],
            o = q(k);
          const judged = concept.basis !== 'none' && (!o || Number.isFinite(o.mean));
          const best = judged && k === (o ? d.best : concept.best);
          const tied = o ? o.indistinguishableFromBest : p.indistinguishableFromBest;
          const separates = o ? o.separates : p.separates;
          return (
            <tr
              class={`${best ? 'best' : ''} ${judged && tied ? 'tied' : ''} ${judged && !separates ? 'chance' : ''}`}
              data-testid="compare-row"
            >
              <td class="name" title={p.name}>
                {best ? '★ ' : ''}
                {p.name}
              </td>
              {o && (
                <>
                  <td data-testid="compare-draw-mean">
                    {f3(o.mean)} <span class="interval">{interval(o.lower, o.upper)}</span>
                  </td>
                  <td>
                    {f3(o.standardDeviation)} <span class="interval">{interval(o.minimum, o.maximum)}</span>
                  </td>
                  <td>
                    {best ? 'best' : pValue(o.holmPValue)}{' '}
                    <span class="interval" title="draws whose own DeLong tests called it best at 99 %">
                      {o.claimedInDraws}/{d.draws} best
                    </span>
                  </td>
                </>
              )}
              <td>{p.width}</td>
              <td>
                {f3(p.heldoutAuroc)} <span class="interval">{interval(p.heldoutAurocLower, p.heldoutAurocUpper)}</span>
              </td>
              <td>
                {f3(p.looAuroc)} <span class="interval">{interval(p.looAurocLower, p.looAurocUpper)}</span>
              </td>
              <td>{f3(p.meanEpisteme)}</td>
              <td>{f3(p.meanAlea)}</td>
              <td>{Number.isFinite(p.decidedFraction) ? `${(100 * p.decidedFraction).toFixed(1)} %` : '–'}</td>
              <td>{f3(p.oodAuroc)}</td>
              <td>{best ? 'best' : pValue(p.pValueAgainstBest)}</td>
              <td>
                <button
                  type="button"
                  class="small"
                  data-testid="compare-open"
                  aria-label={`Open ${p.name} in the Probe tab`}
                  title="Open this probe in the Probe tab"
                  onClick={() => void openInProbe(conceptIndex, k)}
                >
                  Open
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
