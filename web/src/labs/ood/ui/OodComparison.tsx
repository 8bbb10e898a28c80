// The probe's OOD score beside the baselines, all fitted on the current observations: ROC curves and a
// table of AUROC values from the core, with an export of every ROC point.
import { ScrollBox } from '../../../common/ui/ScrollBox.tsx';
import { useSignalEffect } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { rocPlot } from '../plots/roc_plot.ts';
import { methodStyle } from '../../../common/plots/methods.ts';
import {
  comparable,
  comparison,
  comparisonBasis,
  comparisonError,
  comparisonStale,
  OOD_COMPARISON,
  refreshComparison,
} from '../state/ood_baselines_store.ts';
import { saveBlob } from '../../../common/ui/download.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { rocCsv } from './export_roc.ts';

/** Keeps the comparison up to date while the component is shown (debounced). */
function useLiveComparison(): void {
  useSignalEffect(() => {
    void comparisonBasis.value;
    const timer = setTimeout(refreshComparison, 150);
    return () => clearTimeout(timer);
  });
}

export function OodRocPlot() {
  useLiveComparison();
  const c = comparison.value;
  const spec = useMemo(() => (c ? rocPlot(c.result.methods, 'ROC: in-distribution vs OOD') : null), [c]);
  return (
    <PlotView
      spec={spec}
      height={320}
      testId="ood-roc"
      empty={
        comparisonError.value ??
        (comparable.value
          ? 'Fitting the detectors on the current observations…'
          : 'Choose in-distribution queries above to compare the detectors.')
      }
      caption="Each method fitted on the current observations ranks the in-distribution queries (positive) above the OOD rows by its score; the area under each curve is its AUROC (table below). The dashed diagonal is chance."
    />
  );
}

export function OodAurocTable() {
  const c = comparison.value;
  if (!c) return null;
  const { methods, queries, oodRows, seconds } = c.result;
  return (
    <section class="card eval-table-card ood-auroc" aria-label="OOD detection: AUROC">
      <header class="card-header">
        <h2>AUROC of each OOD score{comparisonStale.value ? ' (updating…)' : ''}</h2>
        <div class="card-actions">
          <button
            type="button"
            class="small"
            onClick={() => saveBlob(new Blob([rocCsv(methods)], { type: 'text/csv' }), 'gpprobe-ood-roc.csv')}
          >
            Export ROC (CSV)
          </button>
        </div>
      </header>
      <ScrollBox label="the AUROC table" testId="ood-auroc-scroll">
        <table class="curve-table" data-testid="ood-auroc">
          <thead>
            <tr>
              <th scope="col">method</th>
              <th scope="col">score</th>
              <th class="num" scope="col">
                AUROC
              </th>
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr data-method={m.method}>
                <th scope="row">
                  <span class="swatch" style={{ background: methodStyle(m.method).color }} />
                  {methodStyle(m.method).label}
                </th>
                <td>{methodStyle(m.method).oodScore}</td>
                {'auroc' in m ? (
                  <td class="num" data-value={String(m.auroc)}>
                    {m.auroc.toFixed(4)}
                  </td>
                ) : (
                  <td class="num error" title={m.error}>
                    not available: {m.error}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollBox>
      <p class="caption">
        {queries.toLocaleString('en-US')} in-distribution queries (the query rows that are not observations) against{' '}
        {oodRows.toLocaleString('en-US')} OOD rows; kNN with k = {OOD_COMPARISON.k}, LPE of {OOD_COMPARISON.members}{' '}
        members (seed {OOD_COMPARISON.seed}); {(seconds * 1000).toFixed(0)} ms in the engine. The Evaluate view repeats
        this over many draws and observation counts.
      </p>
      {comparisonError.value && (
        <p class="eval-outcome error">
          {comparisonError.value}{' '}
          <button type="button" class="link" onClick={refreshComparison}>
            compare again
          </button>
        </p>
      )}
    </section>
  );
}
