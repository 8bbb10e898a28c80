// An experiment's result: what ran on what (and whether the data changed since), the metric against
// observations with its table, and the exports.
import { useMemo } from 'preact/hooks';
import type { ExperimentKind } from '../../../engine/evaluation/experiments.ts';
import { curvesPlot } from '../plots/evaluation_plots.ts';
import { isStale, type ExperimentRecord } from '../state/evaluation_store.ts';
import { saveBlob } from '../../../common/ui/download.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { CurveTable, tableNotes, useScrollsSideways } from './CurveTable.tsx';
import { cloudsCsv, curvesCsv } from './export_curves.ts';

const PLOTS: Record<
  ExperimentKind,
  { title: string; yLabel: string; range: [number, number]; chance?: number; caption: string }
> = {
  probing: {
    title: 'Probing: AUROC vs observations',
    yLabel: 'AUROC on held-out queries',
    range: [0, 1],
    chance: 0.5,
    caption:
      'Each line is a probe fitted on O balanced observations (O/2 per class, the same for every method) and judged on the same held-out queries: mean over trials, band ± 1 sd. Higher is better; 0.5 (dashed) is chance. Sample efficiency shows on the left.',
  },
  fuzzy: {
    title: 'Fuzzy concepts: Pearson r vs observations',
    yLabel: 'Pearson r (p vs judged probability)',
    range: [-1, 1],
    caption:
      'Pearson correlation between the label probability p and the judged probability of the originally positive queries, pooled over the four p: how well a probe recovers how fuzzy the concept is (paper Fig. 5, left). Mean over trials, band ± 1 sd; higher is better.',
  },
  ood: {
    title: 'OOD detection: AUROC vs observations',
    yLabel: 'AUROC (in-distribution vs OOD)',
    range: [0, 1],
    chance: 0.5,
    caption:
      "AUROC of each method's OOD score for telling held-out in-distribution queries (positive) from the OOD rows, every method fitted on the same O observations: mean over trials, band ± 1 sd. 0.5 (dashed) is chance.",
  },
};

function Summary({ kind, record }: { kind: ExperimentKind; record: ExperimentRecord }) {
  const { run, settings: s, setup } = record;
  const stale = isStale(kind);
  return (
    <p class={`run-summary ${stale ? 'stale' : ''}`} data-testid="evaluation-summary">
      {stale ? 'The data, concept, query subset or OOD set changed since this run · ' : ''}
      {run.result.trials} trials (seed {s.seed}) · O = {run.result.observationCounts.join(', ')} · ε = {s.epsilon}, s ={' '}
      {s.strength}, LPE of {s.members}
      {kind === 'ood' ? `, k = ${s.k}` : ''}
      {kind === 'probing' && s.gpc ? ' · GPC: probit, RBF, hyperparameters learned per step' : ''} ·{' '}
      {run.rows.toLocaleString('en-US')} rows
      {run.oodRows ? ` + ${run.oodRows.toLocaleString('en-US')} OOD rows` : ''} · {setup} · {run.seconds.toFixed(1)} s
      {run.result.scheduleLimit && (
        // What ended the observation counts early, in the core's words.
        <span class="eval-limit" data-testid="schedule-limit">
          <br />
          Observation counts {run.result.scheduleLimit}.
        </span>
      )}
    </p>
  );
}

export function CurveResults({ kind, record }: { kind: ExperimentKind; record: ExperimentRecord }) {
  const result = record.run.result;
  const meta = PLOTS[kind];
  const spec = useMemo(() => curvesPlot(result, meta), [result, meta]);
  const save = (text: string, name: string) => saveBlob(new Blob([text], { type: 'text/csv' }), name);
  const [tableBox, scrolls] = useScrollsSideways();
  return (
    <>
      <Summary kind={kind} record={record} />
      <div class="plot-grid eval-results">
        <PlotView spec={spec} height={360} caption={meta.caption} testId={`${kind}-curves`} />
        <section class="card eval-table-card" aria-label={`${meta.title}: numbers`}>
          <header class="card-header">
            <h2>
              {result.curves[0]?.metric === 'pearson' ? 'Pearson r' : 'AUROC'}: mean{result.trials > 1 ? ' ± sd' : ''}{' '}
              over {result.trials} trials
            </h2>
            <div class="card-actions">
              <button type="button" class="small" onClick={() => save(curvesCsv(result), `gpprobe-${kind}-curves.csv`)}>
                Export curves (CSV)
              </button>
              {kind === 'fuzzy' && (
                <button type="button" class="small" onClick={() => save(cloudsCsv(result), 'gpprobe-fuzzy-clouds.csv')}>
                  Export clouds (CSV)
                </button>
              )}
            </div>
          </header>
          {scrolls && (
            <p class="hint scroll-hint" data-testid={`${kind}-table-scrolls`}>
              Scroll the table sideways for every method →
            </p>
          )}
          <div
            class="eval-table-scroll"
            ref={tableBox}
            tabIndex={scrolls ? 0 : undefined}
            aria-label={scrolls ? 'the table, scrolling sideways' : undefined}
          >
            <CurveTable result={result} testId={`${kind}-table`} />
          </div>
          <p class="caption">
            Bold: the highest mean at that O. The CSV has every value at full precision, in the columns of{' '}
            <code>gpprobe evaluate</code>.
          </p>
          {tableNotes(result).map((note) => (
            <p class="caption table-note" data-testid={`${kind}-table-note`}>
              {note}
            </p>
          ))}
        </section>
      </div>
    </>
  );
}
