// What the chosen kernel believes before seeing data: joint samples of the prior GP on the plot's grid.
import { useMemo } from 'preact/hooks';
import { priorPlot } from '../plots/regression_plots.ts';
import { grid, prior, series } from '../state/regression_store.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';

export function PriorPlot() {
  const g = grid.value,
    p = prior.value,
    data = series.value;
  const spec = useMemo(
    () =>
      g && p && data && 'samples' in p && p.samples.length === p.count * g.rows
        ? priorPlot(g, p.samples, p.count, data.xNames[0])
        : null,
    [g, p, data],
  );
  if (!g) return null;
  return (
    <section class="panel previews">
      <PlotView
        spec={spec}
        height={160}
        testId="regression-prior-plot"
        empty={p && 'problem' in p ? `No prior samples: ${p.problem}` : 'drawing prior samples…'}
      />
    </section>
  );
}
