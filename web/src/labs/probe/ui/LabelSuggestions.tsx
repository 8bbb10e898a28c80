// What to label next: the query rows (not yet observations) whose label would raise the probe's
// knowledge there most, by the core's expected knowledge gain (knowledge_gain.h), each with one click to
// add it as an observation (its label follows from the concept) and an Undo for that click.
import { useMemo, useState } from 'preact/hooks';
import { queryRows, results, selected, undo } from '../../../common/state/session_store.ts';
import { toggleObservation } from '../state/probe_store.ts';
import { verdict } from '../state/verdict_store.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { Thumbnail } from '../../../common/ui/Thumbnail.tsx';

const SHOWN = 5;

/** The `count` rows of `candidates` with the highest gain, highest first. */
function topRows(gain: Float64Array, candidates: ArrayLike<number>, skip: Set<number>, count: number): number[] {
  const best: number[] = [];
  for (let k = 0; k < candidates.length; k++) {
    const row = candidates[k];
    if (skip.has(row) || !(gain[row] > 0)) continue;
    if (best.length === count && gain[row] <= gain[best[count - 1]]) continue;
    best.push(row);
    best.sort((a, b) => gain[b] - gain[a] || a - b);
    if (best.length > count) best.pop();
  }
  return best;
}

export function LabelSuggestions() {
  const r = results.value,
    v = verdict.value,
    subset = queryRows.value;
  const [added, setAdded] = useState<number | null>(null);
  const current = v && r && v.basis === r.basis ? v : null;
  const rows = useMemo(() => {
    if (!current || !r) return [];
    const candidates = subset ?? Int32Array.from({ length: current.run.knowledgeGain.length }, (_, i) => i);
    return topRows(current.run.knowledgeGain, candidates, new Set(r.observations), SHOWN);
  }, [current, subset]);
  if (!r?.labels || !current) return null;
  const y = r.labels,
    gain = current.run.knowledgeGain;
  return (
    <section class="card suggestions-card" aria-labelledby="suggestions-heading" data-testid="label-suggestions">
      <h2 id="suggestions-heading">Label next</h2>
      {added !== null && (
        <p class="hint">
          Added row {added} as an observation.{' '}
          <button
            type="button"
            class="link"
            onClick={() => {
              undo();
              setAdded(null);
            }}
          >
            Undo
          </button>
        </p>
      )}
      {rows.length === 0 ? (
        <p class="hint">No query row is left to add.</p>
      ) : (
        <ol class="suggestions">
          {rows.map((row) => (
            <li data-row={row}>
              <Thumbnail row={row} size={28} />
              <button
                type="button"
                class="link row-link"
                onClick={() => {
                  selected.value = row;
                }}
                title="Select this row"
              >
                row {row}
              </button>
              <span class={`swatch ${y[row] ? 'positive' : 'negative'}`} />
              <span class="suggestion-label" title={y[row] ? 'shows the concept' : 'does not show the concept'}>
                {y[row] ? 'positive' : 'negative'}
              </span>
              <span class="gain" title="Expected rise of the knowledge score at this row from its label">
                +{formatMeasure(gain[row])}
              </span>
              <button
                type="button"
                class="small"
                onClick={() => {
                  toggleObservation(row);
                  setAdded(row);
                }}
              >
                Add as observation
              </button>
            </li>
          ))}
        </ol>
      )}
      <p class="caption">
        Ranked by the expected rise of the knowledge score (1 − latent variance / prior variance) at the row if it were
        added as an observation with its label; the rows the probe knows least about come first, outliers included.
      </p>
    </section>
  );
}
