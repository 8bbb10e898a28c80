// All queries with their measures and metadata: sortable, virtualised (only visible rows are in the
// DOM), smooth at 100,000 rows. A row click selects the query; the checkbox makes it an observation.
import { useMemo, useRef, useState } from 'preact/hooks';
import type { ProbeScores } from '../../../engine/probe/probe_engine.ts';
import type { Column } from '../../../io/table.ts';
import { cellText } from '../../../common/state/session.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { hiddenAttributes, ScrollCue, useHiddenSides } from '../../../common/ui/ScrollBox.tsx';

const ROW_HEIGHT = 28;

/** The measures as tables, tooltips and the map's colour name them; `range`: the measure's own range, if it
 * has one (a probability's [0, 1]; alea, a binary entropy in nats, up to log 2). */
export const MEASURE_COLUMNS: { key: keyof ProbeScores; label: string; range?: [number, number] }[] = [
  { key: 'judgedProbability', label: 'judged probability', range: [0, 1] },
  { key: 'episteme', label: 'episteme (nats)' },
  { key: 'alea', label: 'alea (nats)', range: [0, Math.LN2] },
  { key: 'knowledge', label: 'knowledge', range: [0, 1] },
  { key: 'oodScore', label: 'OOD score' },
];

type SortKey =
  | { kind: 'row' }
  | { kind: 'measure'; key: keyof ProbeScores }
  | { kind: 'column'; name: string }
  | { kind: 'observation' };

interface Props {
  scores: ProbeScores | null;
  columns: Column[];
  rows: number;
  /** The rows to list (all when null). */
  subset: Int32Array | null;
  labels: Uint8Array | null;
  observations: Set<number>;
  selected: number | null;
  onSelect(row: number): void;
  onToggleObservation(row: number): void;
  /** A picture per row (a sprite sheet's thumbnails), shown in a column of its own. */
  thumbnail?: (row: number) => preact.ComponentChildren;
  /** Height of the scrolling table in pixels (default 420). */
  height?: number;
}

export function ResultsTable({
  scores,
  columns,
  rows: total,
  subset,
  labels,
  observations,
  selected,
  onSelect,
  onToggleObservation,
  thumbnail,
  height = 420,
}: Props) {
  const rows = subset ? subset.length : total;
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean }>({ key: { kind: 'row' }, descending: false });
  const [scrollTop, setScrollTop] = useState(0);
  const viewport = useRef<HTMLDivElement>(null);
  const hidden = useHiddenSides(viewport);
  const shown = columns.slice(0, 6);

  // Rows in the order shown: by row number (the default) no array is built; the scores matter only
  // when sorting by a measure, so new scores (an observation toggled) re-sort nothing otherwise.
  const key = sort.key;
  const measure = key.kind === 'measure' && scores ? scores[key.key] : null;
  const order = useMemo((): ArrayLike<number> | null => {
    if (key.kind === 'row' || (key.kind === 'measure' && !measure)) return subset;
    let compare: (a: number, b: number) => number;
    if (measure) {
      compare = (a, b) => measure[a] - measure[b];
    } else if (key.kind === 'column') {
      const c = columns.find((x) => x.name === key.name);
      if (c?.kind === 'number') compare = (a, b) => c.values[a] - c.values[b];
      else if (c) compare = (a, b) => c.values[a].localeCompare(c.values[b]);
      else compare = (a, b) => a - b;
    } else {
      compare = (a, b) => Number(observations.has(a)) - Number(observations.has(b));
    }
    const index = subset ?? Int32Array.from({ length: rows }, (_, i) => i);
    return Array.from(index).sort((a, b) => compare(a, b) || a - b);
  }, [rows, subset, measure, columns, JSON.stringify(key), key.kind === 'observation' ? observations : null]);
  /** The row shown at position k. */
  const rowAt = (k: number): number => {
    const p = sort.descending ? rows - 1 - k : k;
    return order ? order[p] : p;
  };
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - 5);
  const last = Math.min(rows, Math.ceil((scrollTop + height) / ROW_HEIGHT) + 5);
  const header = (key: SortKey, label: string, numeric = false) => {
    const active = JSON.stringify(sort.key) === JSON.stringify(key);
    return (
      <th class={numeric ? 'num' : ''} aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
        <button
          type="button"
          class="sort"
          onClick={() => setSort({ key, descending: active ? !sort.descending : key.kind === 'measure' })}
        >
          {label}
          {active ? (sort.descending ? ' ▼' : ' ▲') : ''}
        </button>
      </th>
    );
  };
  return (
    <section class="card table-card" aria-label="Results table">
      <div class="scroll-box" {...hiddenAttributes(hidden)}>
        <ScrollCue hidden={hidden} />
        <div
          class="table-viewport"
          ref={viewport}
          style={{ height: `${height}px` }}
          onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}
        >
          <table class="results" role="grid" aria-rowcount={rows}>
            <thead>
              <tr>
                {header({ kind: 'row' }, 'row', true)}
                {header({ kind: 'observation' }, 'obs.')}
                {thumbnail && <th aria-label="thumbnail" />}
                {labels && <th>concept</th>}
                {MEASURE_COLUMNS.map((m) => header({ kind: 'measure', key: m.key }, m.label, true))}
                {shown.map((c) => header({ kind: 'column', name: c.name }, c.name, c.kind === 'number'))}
              </tr>
            </thead>
            <tbody>
              <tr style={{ height: `${first * ROW_HEIGHT}px` }} aria-hidden="true" />
              {Array.from({ length: Math.max(0, last - first) }, (_, k) => rowAt(first + k)).map((row) => (
                <tr
                  key={row}
                  class={row === selected ? 'selected' : ''}
                  onClick={() => onSelect(row)}
                  aria-selected={row === selected}
                  style={{ height: `${ROW_HEIGHT}px` }}
                >
                  <td class="num">{row}</td>
                  <td>
                    <input
                      type="checkbox"
                      checked={observations.has(row)}
                      aria-label={`Observation ${row}`}
                      onClick={(e) => e.stopPropagation()}
                      onChange={() => onToggleObservation(row)}
                    />
                  </td>
                  {thumbnail && <td class="thumb">{thumbnail(row)}</td>}
                  {labels && (
                    <td>
                      <span class={`swatch ${labels[row] ? 'positive' : 'negative'}`} />
                      {labels[row] ? 'yes' : 'no'}
                    </td>
                  )}
                  {MEASURE_COLUMNS.map((m) => (
                    <td class="num">{scores ? formatMeasure(scores[m.key][row]) : '…'}</td>
                  ))}
                  {shown.map((c) => (
                    <td class={c.kind === 'number' ? 'num' : ''}>{cellText(c, row)}</td>
                  ))}
                </tr>
              ))}
              <tr style={{ height: `${(rows - last) * ROW_HEIGHT}px` }} aria-hidden="true" />
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
