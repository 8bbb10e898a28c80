// Choosing the observations: N random per class with a seed (the core's draw: `gpprobe draw` with the
// same seed picks the same rows), or clicks on the map and table. A count or seed that is not a whole
// number in range is refused with a message and the observations are kept.
import { useEffect, useState } from 'preact/hooks';
import { labels, session } from '../../../common/state/session_store.ts';
import { parseCount } from '../../../common/ui/number_text.ts';
import { draw, setObservations } from '../state/probe_store.ts';

export function ObservationsPanel() {
  const s = session.value;
  const y = labels.value;
  const positives = y ? s.observations.filter((r) => y[r] === 1).length : 0;
  const negatives = s.observations.length - positives;
  /** What was typed and refused, by field, with why (none: the fields show the settings). */
  const [refused, setRefused] = useState<{ perClass?: [string, string]; seed?: [string, string] }>({});
  useEffect(() => setRefused({}), [s.draw.perClass, s.draw.seed]);
  const take = (field: 'perClass' | 'seed', text: string, name: string, max: number, use: (n: number) => void) => {
    const parsed = parseCount(text, name, 0, max);
    if ('problem' in parsed) {
      setRefused((r) => ({ ...r, [field]: [text, `${parsed.problem}; the observations are kept`] }));
      return;
    }
    setRefused((r) => ({ ...r, [field]: undefined }));
    use(parsed.value);
  };
  return (
    <section class="panel" aria-labelledby="observations-heading">
      <h3 id="observations-heading">Observations</h3>
      <div class="row">
        <label class="field compact">
          <span>Per class</span>
          <input
            type="text"
            inputMode="numeric"
            value={refused.perClass?.[0] ?? s.draw.perClass}
            aria-label="Observations per class"
            aria-invalid={refused.perClass !== undefined}
            onChange={(e) =>
              take('perClass', e.currentTarget.value, 'Per class', 100000, (n) => void draw(n, s.draw.seed))
            }
          />
        </label>
        <label class="field compact">
          <span>Seed</span>
          <input
            type="text"
            inputMode="numeric"
            value={refused.seed?.[0] ?? s.draw.seed}
            aria-label="Random seed"
            aria-invalid={refused.seed !== undefined}
            onChange={(e) =>
              take('seed', e.currentTarget.value, 'Seed', 2 ** 32 - 1, (seed) => void draw(s.draw.perClass, seed))
            }
          />
        </label>
        <button
          type="button"
          onClick={() => void draw(s.draw.perClass, s.draw.seed + 1)}
          title="Draw again with the next seed"
        >
          Redraw
        </button>
      </div>
      {(refused.perClass || refused.seed) && (
        <p class="field-error" role="alert" data-testid="observations-problem">
          {[refused.perClass?.[1], refused.seed?.[1]].filter(Boolean).join(' ')}
        </p>
      )}
      <p class="hint" data-testid="observation-summary">
        <strong>{s.observations.length}</strong> observation{s.observations.length === 1 ? '' : 's'}
        {y ? (
          <>
            {' '}
            — <span class="swatch positive" />
            {positives} positive, <span class="swatch negative" />
            {negatives} negative
          </>
        ) : (
          ' (no concept: the probe shows its prior)'
        )}
        . Click points on the map (with “pick observations” on) or the table's checkboxes to add or remove one.
      </p>
      {s.observations.length > 0 && (
        <button type="button" class="link" onClick={() => setObservations([])}>
          remove all observations
        </button>
      )}
    </section>
  );
}
