// The "Regression" tab: GP regression on a bundled example or a CSV, hyperparameters learned by
// maximum marginal likelihood or set by hand, the epistemic and total bands, the knowledge score, and
// knowledge-gated anomaly detection with the paper's Fig. 3 experiment. Its requests go to the app's one
// engine worker (worker/handlers.ts); its long tasks show in the app's task bar.
import { useEffect } from 'preact/hooks';
import { startAnomalies } from '../state/anomaly_store.ts';
import { startRegression } from '../state/regression_store.ts';
import { AnomalyPanel } from './AnomalyPanel.tsx';
import { DataPanel } from './DataPanel.tsx';
import { ExperimentPlots } from './ExperimentPlots.tsx';
import { FitPlots } from './FitPlots.tsx';
import { KernelPanel } from './KernelPanel.tsx';
import { PriorPlot } from './PriorPlot.tsx';
import './regression.css';

export function RegressionView() {
  useEffect(() => {
    void startRegression();
    startAnomalies();
  }, []);
  return (
    <div class="regression">
      <aside class="regression-controls">
        <DataPanel />
        <KernelPanel />
        <PriorPlot />
        <AnomalyPanel />
      </aside>
      <div class="regression-main">
        <FitPlots />
        <ExperimentPlots />
      </div>
    </div>
  );
}
