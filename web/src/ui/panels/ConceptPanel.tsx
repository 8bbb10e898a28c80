// Defining the concept: a metadata column and the values that count as positive (or a threshold on a
// numeric column).
import { useState } from 'preact/hooks';
import { distinctValues } from '../../state/session.ts';
import { columns, dataset, labels, session, setConcept } from '../../state/store.ts';
import { formatCount } from '../format.ts';

export function ConceptPanel() {
  const cols = columns.value;
  const concept = session.value.concept;
  const column = cols.find((c) => c.name === concept?.column) ?? null;
  const values = column ? distinctValues(column, 60) : [];
  const manyValues = column !== null && column.kind === 'number' && distinctValues(column, 61).length > 60;
  const [filter, setFilter] = useState('');
  const y = labels.value;
  const positives = y ? y.reduce((s, v) => s + v, 0) : 0;

  if (!dataset.value) return null;
  if (cols.length === 0) {
    return (
      <section class="panel">
        <h3>Concept</h3>
        <p class="hint">This dataset has no metadata columns. Upload a metadata file (CSV/TSV with one row per embedding) together with the embeddings to define a concept.</p>
      </section>
    );
  }
  const pickColumn = (name: string) => {
    const c = cols.find((x) => x.name === name)!;
    const many = c.kind === 'number' && distinctValues(c, 61).length > 60;
    if (many) {
      const sorted = Float64Array.from(c.values as Float64Array).sort();
      setConcept({ column: name, kind: 'threshold', threshold: sorted[Math.floor(sorted.length / 2)] });
    } else {
      setConcept({ column: name, kind: 'values', positives: [distinctValues(c, 1)[0]] });
    }
  };
  return (
    <section class="panel" aria-labelledby="concept-heading">
      <h3 id="concept-heading">Concept</h3>
      <label class="field">
        <span>Metadata column</span>
        <select value={concept?.column ?? ''} onChange={(e) => pickColumn((e.target as HTMLSelectElement).value)} aria-label="Concept column">
          {!concept && <option value="">choose…</option>}
          {cols.map((c) => <option value={c.name}>{c.name}</option>)}
        </select>
      </label>
      {concept?.kind === 'threshold' && (
        <label class="field">
          <span>Positive when value ≥</span>
          <input type="number" step="any" value={concept.threshold} aria-label="Concept threshold"
            onChange={(e) => {
              const t = Number((e.target as HTMLInputElement).value);
              if (Number.isFinite(t)) setConcept({ ...concept, threshold: t });
            }} />
        </label>
      )}
      {concept?.kind === 'values' && column && (
        <div class="field">
          <span>Values that show the concept</span>
          {values.length > 12 && <input type="search" placeholder="filter values" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />}
          <div class="chips" role="group" aria-label="Positive values">
            {values.filter((v) => v.toLowerCase().includes(filter.toLowerCase())).map((v) => {
              const on = concept.positives.includes(v);
              return (
                <button type="button" class={`chip ${on ? 'on' : ''}`} aria-pressed={on}
                  onClick={() => setConcept({ ...concept, positives: on ? concept.positives.filter((p) => p !== v) : [...concept.positives, v] })}>
                  {v}
                </button>
              );
            })}
          </div>
          {manyValues && <p class="hint">Showing the first 60 values.</p>}
        </div>
      )}
      {column?.kind === 'number' && concept?.kind === 'values' && (
        <button type="button" class="link" onClick={() => {
          const sorted = Float64Array.from(column.values as Float64Array).sort();
          setConcept({ column: column.name, kind: 'threshold', threshold: sorted[Math.floor(sorted.length / 2)] });
        }}>use a threshold instead</button>
      )}
      {column?.kind === 'number' && concept?.kind === 'threshold' && (
        <button type="button" class="link" onClick={() => setConcept({ column: column.name, kind: 'values', positives: [values[0]] })}>pick values instead</button>
      )}
      {y && <p class="hint">{formatCount(positives)} of {formatCount(y.length)} rows show the concept.</p>}
    </section>
  );
}
