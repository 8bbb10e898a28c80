// The fit: data, posterior mean, the epistemic and total 95% bands, posterior samples and the true
// function of an example; under it the knowledge score on the same x axis. With several input columns
// the x axis is one chosen column or the row index, and the caption says so. Exports the predictions.
import { useMemo, useState } from 'preact/hooks';
import { fitPlot, knowledgePlot, axisOf, type FitPlotInput } from '../plots/regression_plots.ts';
import { dataStatus, thresholds } from '../state/anomaly_store.ts';
import { currentFit, example, grid, series } from '../state/regression_store.ts';
import { ANOMALY_STATUSES } from '../../../engine/vocabulary.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { exportPredictions } from './export_predictions.ts';

const BANDS =
  'Dark band: 95% of the latent f (epistemic: what the data leave open). Light band with dashed edges: 95% of a new ' +
  'observation y = f + noise (epistemic + aleatoric).';

export function FitPlots() {
  const data = series.value,
    fit = currentFit.value?.result ?? null,
    ex = example.value;
  const [column, setColumn] = useState(-1);
  const st = dataStatus.value;
  const status = st && st.fit === fit ? { data: st.data.statuses, extra: st.extra?.statuses ?? null } : null;
  const axis = useMemo(() => (data ? axisOf(data, Math.min(column, data.x.cols - 1)) : null), [data, column]);
  const input: FitPlotInput | null =
    data && axis
      ? {
          data,
          axis,
          fit,
          grid: fit?.grid ? grid.value : null,
          status,
          truth: ex && data.x.cols === 1 ? { x: ex.truthX, y: ex.truth } : null,
        }
      : null;
  const rho = thresholds.value.rho;
  const main = useMemo(() => input && fitPlot(input), [data, axis, fit, ex, status?.data, status?.extra]);
  const knowledge = useMemo(() => input && knowledgePlot(input, rho), [data, axis, fit, rho]);
  if (!data || !axis) return <div class="empty-state">Loading the lecture's example…</div>;

  const tooltip = (i: number): string[] => {
    const lines = [`point ${i}: ${axis.label} = ${formatMeasure(axis.values[i])}, y = ${formatMeasure(data.y[i])}`];
    if (fit) {
      lines.push(
        `mean ${formatMeasure(fit.data.mean[i])}, sd of y ${formatMeasure(Math.sqrt(fit.data.observationVariance[i]))}`,
      );
      lines.push(`knowledge G ${formatMeasure(fit.data.knowledge[i])}`);
    }
    if (status && st) lines.push(`${ANOMALY_STATUSES[status.data[i]]} (score ${formatMeasure(st.data.scores[i])})`);
    return lines;
  };
  const several = data.x.cols > 1;
  const where = several
    ? `${data.x.cols} input columns: predictions at the data points, plotted against ${axis.label}; the other inputs vary along this axis, so the bands are not a function of it alone. `
    : '';
  const axisChoice = several && (
    <select aria-label="Plot against" value={column} onChange={(e) => setColumn(Number(e.currentTarget.value))}>
      <option value={-1}>row index</option>
      {data.xNames.map((name, j) => (
        <option value={j}>{name}</option>
      ))}
    </select>
  );
  return (
    <div class="fit-plots">
      <p class="run-summary" data-testid="regression-summary">
        {data.name}: {data.y.length.toLocaleString()} points
        {fit
          ? ` · log marginal likelihood ${fit.state.logMarginalLikelihood.toFixed(3)} · fitted and predicted in ${(fit.seconds * 1000).toFixed(0)} ms`
          : ' · fitting…'}
      </p>
      <PlotView
        spec={main}
        height={360}
        tooltip={tooltip}
        testId="regression-fit-plot"
        caption={
          where +
          BANDS +
          (fit?.samples ? ' Brown lines: joint posterior samples of f.' : '') +
          (data.heldOut ? ' Rings: held out of the fit.' : '')
        }
        controls={
          <>
            {axisChoice}
            <button type="button" class="small" disabled={!fit} onClick={() => void exportPredictions()}>
              Export predictions (CSV)
            </button>
          </>
        }
      />
      <PlotView
        spec={knowledge}
        height={180}
        testId="regression-knowledge-plot"
        empty="fitting…"
        caption="G(x) = 1 − var_post(x) / k(x, x): the share of the prior variance the data removed. It falls in gaps and beyond the data; points with G < ρ are “unknown”."
      />
    </div>
  );
}
