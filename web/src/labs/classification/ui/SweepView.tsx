// The gamma sweep of both models side by side (the paper's Fig. 2): for each gamma the certified
// intervals of the smallest and largest p(y = 1) over x* ± gamma, and the GPFGS attack's probability;
// hover a gamma for its numbers; PNG/SVG per plot and one CSV of both.
import { useMemo } from 'preact/hooks';
import { adversarialSide, sweepPlot } from '../plots/certify_plots.ts';
import { data, SIDES, type Side } from '../state/classification_store.ts';
import { isStale, sweeps } from '../state/certify_store.ts';
import { modelLabel } from '../worker/protocol.ts';
import { saveBlob, slug } from '../../../common/ui/download.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { SIDE_NAMES } from './ModelColumn.tsx';
import { sweepsCsv } from './export_certify.ts';

function SweepPlot({ side }: { side: Side }) {
  const entry = sweeps.value[side],
    name = SIDE_NAMES[side];
  const rows = entry?.result?.certificates ?? null;
  const refined = useMemo(() => {
    if (!rows?.length || !entry) return [];
    return entry.settings.search === 'both' ? (['minimum', 'maximum'] as const) : [adversarialSide(rows[0])];
  }, [rows, entry]);
  const spec = useMemo(
    () =>
      rows && entry
        ? sweepPlot(`Model ${name}, ${modelLabel(entry.model)}: certified p(y = 1) against γ`, rows, [...refined])
        : null,
    [rows, entry, refined, name],
  );
  if (!entry) return null;
  const tooltip = (g: number) => {
    const c = rows![g];
    return [
      `γ = ${formatMeasure(c.gamma)}`,
      `π_min ∈ [${formatMeasure(c.minimum.lower)}, ${formatMeasure(c.minimum.upper)}] (${c.minimum.iterations} splits)`,
      `π_max ∈ [${formatMeasure(c.maximum.lower)}, ${formatMeasure(c.maximum.upper)}] (${c.maximum.iterations} splits)`,
      `GPFGS: ${formatMeasure(c.gpfgs.probability)} · class can flip: ${c.verdictCanFlip}`,
    ];
  };
  const empty =
    entry.state === 'failed'
      ? `failed: ${entry.error}`
      : entry.state === 'cancelled'
        ? 'cancelled'
        : entry.state === 'waiting'
          ? 'waits for the other model…'
          : 'sweeping…';
  return (
    <PlotView
      spec={spec}
      height={300}
      tooltip={rows ? tooltip : undefined}
      testId={`sweep-${name}`}
      empty={empty}
      caption={
        `${refined.length === 2 ? 'Blue: π_min, vermillion: π_max' : `${refined[0] === 'minimum' ? 'Blue: π_min' : 'Vermillion: π_max'} (the adversarial extreme; the other is not refined)`}, each a certified interval ` +
        `(width ≤ ${formatMeasure(entry.settings.tolerance)} where converged); black: what one GPFGS step reaches; grey: p = ½. Where GPFGS stays on x*'s side of ½ but the ` +
        `interval crosses it, the attack misses an adversarial example that exists.${isStale(entry, side) ? ' The model has changed since this sweep.' : ''}`
      }
    />
  );
}

export function SweepView() {
  const d = data.value,
    entries = sweeps.value;
  if (!d || entries.every((e) => e === null)) return null;
  const finished = entries.some((e) => e?.result);
  return (
    <section class="sweep-view" aria-label="Gamma sweep">
      <div class="sweep-header">
        <h2>
          γ sweep at x* (
          {entries
            .find((e) => e)!
            .point.map(formatMeasure)
            .join(', ')}
          )
        </h2>
        <button
          type="button"
          disabled={!finished}
          onClick={() =>
            saveBlob(new Blob([sweepsCsv(d, entries)], { type: 'text/csv' }), `${slug(d.name)}-gamma-sweep.csv`)
          }
        >
          Export sweep (CSV)
        </button>
      </div>
      <div class="model-columns">
        {SIDES.map((side) => (
          <SweepPlot side={side} />
        ))}
      </div>
    </section>
  );
}
