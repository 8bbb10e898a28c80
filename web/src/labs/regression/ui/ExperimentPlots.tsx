// Fig. 3 of Butler et al., "Trustworthy Prediction with Gaussian Process Knowledge Scores", reproduced: (A,
// B) training data with anomalies, the learned model and the test points coloured by status; (C) the
// knowledge score; (D) ROC curves of the anomaly score over all test points and over those with G >= ρ, and
// the AUC of the core's ρ sweep. Numbers from the core.
import { useMemo } from 'preact/hooks';
import type { RocCurveData } from '../../../engine/regression/regression.ts';
import { experimentKnowledgePlot, experimentPlot, rocPlot } from '../plots/anomaly_plots.ts';
import { experiment, experimentRoc, experimentStatus, thresholds } from '../state/anomaly_store.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';

function AucRow({ label, curve }: { label: string; curve: RocCurveData }) {
  return (
    <tr>
      <td>{label}</td>
      <td class="num">{curve.points}</td>
      <td class="num">{curve.positives}</td>
      <td class="num">{curve.defined ? curve.auc.toFixed(3) : '—'}</td>
    </tr>
  );
}

export function ExperimentPlots() {
  const r = experiment.value,
    status = experimentStatus.value,
    roc = experimentRoc.value;
  const rho = thresholds.value.rho;
  const main = useMemo(() => r && experimentPlot(r, status?.statuses ?? null), [r, status]);
  const knowledge = useMemo(() => r && experimentKnowledgePlot(r, rho), [r, rho]);
  const rocSpec = useMemo(() => roc && rocPlot(roc.ungated, roc.gated, rho), [roc]);
  if (!r) return null;
  const e = r;
  return (
    <section class="experiment" aria-labelledby="experiment-heading">
      <h2 id="experiment-heading">Knowledge-gated anomaly detection (Butler et al., Fig. 3)</h2>
      <p class="run-summary" data-testid="experiment-summary">
        {e.trainY.length} training points ({e.trainAnomaly.reduce((s, a) => s + a, 0)} anomalies), {e.testY.length} test
        points · learned kernel <code>{e.kernel}</code>, noise variance {formatMeasure(e.noiseVariance)} · log marginal
        likelihood {e.logMarginalLikelihood.toFixed(3)}
      </p>
      <div class="plot-grid">
        <div>
          <PlotView
            spec={main}
            height={300}
            testId="experiment-plot"
            caption="Rings: normal training points; diamonds: training anomalies (left out of the fit). Test points coloured by status at the current ρ and θ."
          />
          <PlotView spec={knowledge} height={160} testId="experiment-knowledge-plot" />
        </div>
        <div>
          <PlotView
            spec={rocSpec}
            height={300}
            testId="roc-plot"
            empty="computing the ROC…"
            caption="Beyond x = 1 the model knows little: gating at G ≥ ρ drops those points, and the ROC of the remaining ones improves."
          />
          <table class="results auc-table card" data-testid="auc-table">
            <thead>
              <tr>
                <th>test points</th>
                <th class="num">kept</th>
                <th class="num">anomalies</th>
                <th class="num">AUC</th>
              </tr>
            </thead>
            <tbody>
              <AucRow label="all (no gate)" curve={e.ungated} />
              {e.gated.map((c) => (
                <AucRow label={`G ≥ ${c.rho}`} curve={c} />
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </section>
  );
}
