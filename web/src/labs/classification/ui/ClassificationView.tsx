// The "Classification" tab: GP classification on a bundled example or a CSV. With two classes, two
// binary models side by side on the same data (Laplace and EP to start), each with its predictive
// probability and latent variance maps; with more (or by choice), one softmax model of C classes
// (MulticlassView.tsx). Hyperparameters set by hand or learned. Its requests go to the app's one engine worker
// (worker/handlers.ts); its long tasks show in the app's task bar.
import { useEffect } from 'preact/hooks';
import { data, family, fits, startClassification } from '../state/classification_store.ts';
import { classCount } from '../state/classification_data.ts';
import { multiclassFit, startMulticlass } from '../state/multiclass_store.ts';
import { MulticlassView } from './MulticlassView.tsx';
import { DataPanel } from './DataPanel.tsx';
import { FitPanel } from './FitPanel.tsx';
import { ModelColumn } from './ModelColumn.tsx';
import { CertifyPanel } from './CertifyPanel.tsx';
import { ExplainPanel } from './ExplainPanel.tsx';
import { SweepView } from './SweepView.tsx';
import './classification.css';

export function ClassificationView() {
  useEffect(() => {
    startMulticlass();
    void startClassification();
  }, []);
  const d = data.value,
    softmax = family.value === 'softmax',
    mc = multiclassFit.value;
  return (
    <div class="classification">
      <aside class="classification-controls">
        <DataPanel />
        <FitPanel />
        <CertifyPanel />
      </aside>
      <div class="classification-main">
        {d ? (
          <p class="run-summary" data-testid="classification-summary">
            {d.name}: {d.labels.length.toLocaleString('en-US')} points, {d.x.cols} feature{d.x.cols > 1 ? 's' : ''}
            {softmax ? `, ${classCount(d)} classes` : ''}
            {softmax
              ? mc
                ? ` · softmax: log marginal likelihood ${mc.result.state.logMarginalLikelihood.toFixed(3)}`
                : ''
              : fits.value
                  .map((f, k) =>
                    f
                      ? ` · ${'AB'[k]}: log marginal likelihood ${f.result.state.logMarginalLikelihood.toFixed(3)}`
                      : '',
                  )
                  .join('')}
          </p>
        ) : (
          <div class="empty-state">Loading the first example…</div>
        )}
        {softmax ? (
          <MulticlassView />
        ) : (
          <>
            <div class="model-columns">
              <ModelColumn side={0} />
              <ModelColumn side={1} />
            </div>
            <SweepView />
          </>
        )}
        <ExplainPanel />
      </div>
    </div>
  );
}
