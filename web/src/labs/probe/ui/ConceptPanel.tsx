// Defining the concept: a metadata column and the values that count as positive (any of its values,
// searched and counted in ValuePicker), or a threshold on a numeric column. A new column starts from
// its "yes" value (1, true, yes, positive) when it has one, and the panel says which value it chose.
// Every change draws the observations anew for the concept (probe_store.ts setConcept).
import { signal } from '@preact/signals';
import type { DatasetSummary } from '../../../labs/probe/worker/protocol.ts';
import type { Column } from '../../../io/table.ts';
import { defaultPositive, distinctValues } from '../../../common/state/session.ts';
import { columns, dataset, labels, session } from '../../../common/state/session_store.ts';
import { setConcept } from '../state/probe_store.ts';
import { countOf, formatCount } from '../../../common/ui/format.ts';
import { ValuePicker } from '../../../common/ui/ValuePicker.tsx';

/**
 * The data whose concept values the user picked by hand: then the note saying which value the app chose
 * and why no longer applies, even when the hand-picked value is that one (issue 24, item 7).
 */
const handPicked = signal<DatasetSummary | null>(null);

/** Numeric columns with more distinct values than this start as a threshold (at the median). */
const THRESHOLD_ABOVE = 60;

function median(column: Column & { kind: 'number' }): number {
  const sorted = Float64Array.from(column.values).sort();
  return sorted[Math.floor(sorted.length / 2)];
}

export function ConceptPanel() {
  const cols = columns.value;
  const concept = session.value.concept;
  const column = cols.find((c) => c.name === concept?.column) ?? null;
  const y = labels.value;
  const positives = y ? y.reduce((s, v) => s + v, 0) : 0;

  if (!dataset.value) return null;
  if (cols.length === 0) {
    return (
      <section class="panel">
        <h3>Concept</h3>
        <p class="hint">
          This dataset has no metadata columns. Upload a metadata file (CSV/TSV with one row per embedding) together
          with the embeddings to define a concept.
        </p>
      </section>
    );
  }
  const byValues = (c: Column) => {
    handPicked.value = null;
    void setConcept({ column: c.name, kind: 'values', positives: [defaultPositive(c)!.value] });
  };
  const pickColumn = (name: string) => {
    const c = cols.find((x) => x.name === name)!;
    if (c.kind === 'number' && distinctValues(c, THRESHOLD_ABOVE + 1).length > THRESHOLD_ABOVE) {
      void setConcept({ column: name, kind: 'threshold', threshold: median(c) });
    } else {
      byValues(c);
    }
  };
  const chosen = column && concept?.kind === 'values' ? defaultPositive(column) : null;
  const isDefault =
    chosen !== null &&
    concept?.kind === 'values' &&
    concept.positives.length === 1 &&
    concept.positives[0] === chosen.value &&
    handPicked.value !== dataset.value;
  return (
    <section class="panel" aria-labelledby="concept-heading">
      <h3 id="concept-heading">Concept</h3>
      <label class="field">
        <span>Metadata column</span>
        <select
          value={concept?.column ?? ''}
          onChange={(e) => pickColumn((e.target as HTMLSelectElement).value)}
          aria-label="Concept column"
        >
          {!concept && <option value="">choose…</option>}
          {cols.map((c) => (
            <option value={c.name}>{c.name}</option>
          ))}
        </select>
      </label>
      {!concept && (
        <p class="hint" data-testid="concept-ask">
          No concept yet: choose a column, then the values that show the concept (a first one is chosen only when a
          column splits the rows at least 5 % / 95 %).
        </p>
      )}
      {concept?.kind === 'threshold' && (
        <label class="field">
          <span>Positive when value ≥</span>
          <input
            type="number"
            step="any"
            value={concept.threshold}
            aria-label="Concept threshold"
            onChange={(e) => {
              const t = Number((e.target as HTMLInputElement).value);
              if (Number.isFinite(t)) void setConcept({ ...concept, threshold: t });
            }}
          />
        </label>
      )}
      {concept?.kind === 'values' && column && (
        <div class="field">
          <span>Values that show the concept</span>
          <ValuePicker
            column={column}
            selected={concept.positives}
            label="Positive values"
            onChange={(positives) => {
              handPicked.value = dataset.value;
              void setConcept({ ...concept, positives });
            }}
          />
          {isDefault && (
            <p class="hint" data-testid="concept-default">
              Chose “{chosen.value}” as the concept: {chosen.reason}. Choose other values above.
            </p>
          )}
        </div>
      )}
      {column?.kind === 'number' && concept?.kind === 'values' && (
        <button
          type="button"
          class="link"
          onClick={() => void setConcept({ column: column.name, kind: 'threshold', threshold: median(column) })}
        >
          use a threshold instead
        </button>
      )}
      {column?.kind === 'number' && concept?.kind === 'threshold' && (
        <button type="button" class="link" onClick={() => byValues(column)}>
          pick values instead
        </button>
      )}
      {y && (
        <p class="hint">
          {formatCount(positives)} of {countOf(y.length, 'row')} show the concept.
        </p>
      )}
    </section>
  );
}
