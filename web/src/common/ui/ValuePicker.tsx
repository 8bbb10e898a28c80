// Choosing values of a metadata column (the concept's positives, a query subset, the in-distribution
// rows): every value with its row count, a search over all of them, several at once. The list is
// virtualised (only the visible rows are in the DOM), so a column of 100,000 names stays quick.
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Column } from '../../io/table.ts';
import { valueCounts } from '../state/session.ts';
import { countOf, formatCount } from './format.ts';

const ROW_HEIGHT = 26;
const VISIBLE_ROWS = 8;

interface Props {
  column: Column;
  selected: string[];
  onChange(values: string[]): void;
  /** The group's accessible name ("Positive values"). */
  label: string;
}

export function ValuePicker({ column, selected, onChange, label }: Props) {
  const counts = useMemo(() => valueCounts(column), [column]);
  // The search and the scroll belong to a column: another column starts unfiltered at its top (with
  // two values there is no search box to clear a filter left over from a column of hundreds).
  const [search, setSearch] = useState<{ column: Column; text: string }>({ column, text: '' });
  const filter = search.column === column ? search.text : '';
  const setFilter = (text: string) => setSearch({ column, text });
  const [scrollTop, setScrollTop] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const chosen = useMemo(() => new Set(selected), [selected]);
  // A new column opens scrolled to its first chosen value (a concept from a link may be far down the list).
  useEffect(() => {
    const at = counts.findIndex((c) => chosen.has(c.value));
    const top = at >= VISIBLE_ROWS ? (at - Math.floor(VISIBLE_ROWS / 2)) * ROW_HEIGHT : 0;
    setScrollTop(top);
    if (list.current) list.current.scrollTop = top;
  }, [column]);
  const needle = filter.trim().toLowerCase();
  const shown = useMemo(
    () => (needle ? counts.filter((c) => c.value.toLowerCase().includes(needle)) : counts),
    [counts, needle],
  );
  const height = Math.min(VISIBLE_ROWS, Math.max(1, shown.length)) * ROW_HEIGHT;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - 4);
  const last = Math.min(shown.length, Math.ceil((scrollTop + height) / ROW_HEIGHT) + 4);
  const toggle = (value: string) =>
    onChange(chosen.has(value) ? selected.filter((v) => v !== value) : [...selected, value]);
  return (
    <div class="value-picker">
      {counts.length > VISIBLE_ROWS && (
        <input
          type="search"
          placeholder={`search ${countOf(counts.length, 'value')}`}
          value={filter}
          aria-label={`Search ${label.toLowerCase()}`}
          onInput={(e) => {
            setFilter((e.target as HTMLInputElement).value);
            setScrollTop(0);
            if (list.current) list.current.scrollTop = 0;
          }}
        />
      )}
      <div
        class="value-list"
        ref={list}
        role="group"
        aria-label={label}
        style={{ height: `${height}px` }}
        onScroll={(e) => setScrollTop((e.target as HTMLDivElement).scrollTop)}
      >
        <div style={{ height: `${first * ROW_HEIGHT}px` }} />
        {shown.slice(first, last).map(({ value, count }) => (
          <button
            type="button"
            key={value}
            class={`value-option ${chosen.has(value) ? 'on' : ''}`}
            aria-pressed={chosen.has(value)}
            title={`${value}: ${countOf(count, 'row')}`}
            style={{ height: `${ROW_HEIGHT}px` }}
            onClick={() => toggle(value)}
          >
            <span class="check" aria-hidden="true">
              {chosen.has(value) ? '✓' : ''}
            </span>
            <span class="value">{value === '' ? '(empty)' : value}</span>
            {/* The name is the value as shown (the count is its description, the title): a label that hid the
                visible text would fail WCAG's "label in name". */}
            <span class="count" aria-hidden="true">
              {formatCount(count)}
            </span>
          </button>
        ))}
        <div style={{ height: `${(shown.length - last) * ROW_HEIGHT}px` }} />
        {shown.length === 0 && <p class="hint">No value contains “{filter}”.</p>}
      </div>
      <p class="hint value-summary">
        {selected.length} of {countOf(counts.length, 'value')} chosen
        {needle ? ` · ${formatCount(shown.length)} match` : ''}
        {needle && shown.length > 0 && (
          <>
            {' '}
            ·{' '}
            <button
              type="button"
              class="link"
              onClick={() => onChange([...new Set([...selected, ...shown.map((c) => c.value)])])}
            >
              choose these
            </button>
          </>
        )}
        {selected.length > 0 && (
          <>
            {' '}
            ·{' '}
            <button type="button" class="link" onClick={() => onChange([])}>
              clear
            </button>
          </>
        )}
      </p>
    </div>
  );
}
