// Choosing the observations: N random per class with a seed (the core's draw: `gpprobe draw` with the
// same seed picks the same rows), or clicks on the map and table.
import { labels, session } from '../../../common/state/session_store.ts';
import { draw, setObservations } from '../state/probe_store.ts';

export function ObservationsPanel() {
  const s = session.value;
  const y = labels.value;
  const positives = y ? s.observations.filter((r) => y[r] === 1).length : 0;
  const negatives = s.observations.length - positives;
  return (
    <section class="panel" aria-labelledby="observations-heading">
      <h3 id="observations-heading">Observations</h3>
      <div class="row">
        <label class="field compact">
          <span>Per class</span>
          <input
            type="number"
            min={0}
            max={100000}
            value={s.draw.perClass}
            aria-label="Observations per class"
            onChange={(e) => {
              const n = Math.max(0, Math.floor(Number((e.target as HTMLInputElement).value)));
              if (Number.isFinite(n)) void draw(n, s.draw.seed);
            }}
          />
        </label>
        <label class="field compact">
          <span>Seed</span>
          <input
            type="number"
            min={0}
            value={s.draw.seed}
            aria-label="Random seed"
            onChange={(e) => {
              const seed = Math.floor(Number((e.target as HTMLInputElement).value));
              if (Number.isFinite(seed) && seed >= 0) void draw(s.draw.perClass, seed);
            }}
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
