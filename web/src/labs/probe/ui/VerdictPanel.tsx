// Beside the probe's results: can these observations be trusted to say anything? A probe fitted on no
// positive (or no negative) observation says so at once; otherwise the core's leave-one-out check
// judges each observation by the probe fitted on all the others and gives the AUROC and log loss of
// those judgements with their uncertainty, with a plain warning when they are at chance. The AUROC's interval
// is the core's, the one that stays honest at the edges and at few observations (core auroc_interval.h:
// Newcombe's score interval joined with DeLong's), not DeLong's alone, whose standard error is 0 at AUROC 1
// (8 + 8 observations ranked perfectly read "1.00 ± 0.00"; the honest interval is 0.63–1.00 at 99 %). The
// conclusion is the core's verdict (leave_one_out.h), never one of the panel's own.
import { useSignalEffect } from '@preact/signals';
import type { LeaveOneOut } from '../../../engine/probe/probe_engine.ts';
import { results } from '../../../common/state/session_store.ts';
import { refreshVerdict, verdict } from '../state/verdict_store.ts';
import { countOf } from '../../../common/ui/format.ts';
import { LabelSuggestions } from './LabelSuggestions.tsx';
import './verdict.css';

const f2 = (v: number) => v.toFixed(2);
/** The level of the core's intervals as a percentage ("99%"). */
const percent = (confidence: number) => `${+(100 * confidence).toFixed(1)}%`;

/** What is missing from the observations for the probe to say anything, or null. */
function missingClass(observations: number[], labels: Uint8Array): string | null {
  const positives = observations.filter((row) => labels[row] === 1).length;
  if (observations.length === 0)
    return 'No observations: the probe shows its prior (judged probability ½ everywhere). Draw observations per class or click rows to add them.';
  if (positives === 0)
    return `No positive observation: all ${countOf(observations.length, 'observation')} do not show the concept, so the probe has never seen it and judges every row below ½. Draw per class, or add rows that show the concept.`;
  if (positives === observations.length)
    return `No negative observation: all ${countOf(observations.length, 'observation')} show the concept, so the probe has never seen a row without it and judges every row above ½. Draw per class, or add rows that do not show it.`;
  return null;
}

function Numbers({ loo }: { loo: LeaveOneOut }) {
  // The log loss's interval is value -/+ z standard errors, so the half-width is upper - value.
  const interval = (value: number, upper: number) => (Number.isFinite(upper) ? <> ± {f2(upper - value)}</> : null);
  return (
    <p class="verdict-numbers">
      AUROC <strong data-testid="loo-auroc">{Number.isFinite(loo.auroc) ? f2(loo.auroc) : '—'}</strong>
      {Number.isFinite(loo.aurocLower) && (
        <span data-testid="loo-auroc-interval">
          {' '}
          ({f2(loo.aurocLower)}–{f2(loo.aurocUpper)})
        </span>
      )}{' '}
      · log loss <strong data-testid="loo-log-loss">{Number.isFinite(loo.logLoss) ? f2(loo.logLoss) : '—'}</strong>
      {interval(loo.logLoss, loo.logLossUpper)} nats · {countOf(loo.positives + loo.negatives, 'observation')} (
      {loo.positives} positive, {loo.negatives} negative)
    </p>
  );
}

function Conclusion({ loo }: { loo: LeaveOneOut }) {
  // The core says too_few for under 2 of a class, and for a ranking whose DeLong interval lies above ½ while the
  // honest one reaches it (leave_one_out.h).
  if (loo.verdict === 'too_few' && (loo.positives < 2 || loo.negatives < 2)) {
    return <p class="verdict-line too_few">Too few observations to judge: the check needs at least 2 of each class.</p>;
  }
  if (loo.verdict === 'too_few') {
    return (
      <p class="verdict-line chance" role="alert" data-testid="loo-honest-caveat">
        ⚠ DeLong's normal interval puts the AUROC above ½, but the interval that stays honest at so few observations (
        {f2(loo.aurocLower)}–{f2(loo.aurocUpper)}) reaches it: these observations are too few to say that they separate
        the concept in this embedding. Add observations.
      </p>
    );
  }
  if (loo.verdict === 'separates') {
    return (
      <p class="verdict-line separates">
        ✓ These observations separate the concept in this embedding: judged by the probe fitted on the others, they are
        ranked better than chance (the AUROC’s {percent(loo.confidence)} interval lies above ½).
      </p>
    );
  }
  const low = loo.aurocLower,
    high = loo.aurocUpper;
  return (
    <p class="verdict-line chance" role="alert">
      ⚠ These observations do not separate the concept in this embedding. Judged by the probe fitted on the others, they
      are ranked (AUROC between {f2(Math.max(0, low))} and {f2(Math.min(1, high))}; ½ is chance) or predicted (log loss{' '}
      {f2(loo.logLoss)} nats; log 2 = 0.69 is a coin's) no better than chance, so judged probabilities near 0 or 1 here
      are not evidence of the concept. Add observations, or try another concept or embedding.
    </p>
  );
}

export function VerdictPanel() {
  useSignalEffect(() => {
    void results.value;
    refreshVerdict();
  });
  const r = results.value;
  if (!r?.labels) return null;
  const missing = missingClass(r.observations, r.labels);
  const v = verdict.value?.basis === r.basis ? verdict.value : null;
  const loo = v?.run.leaveOneOut;
  return (
    <div class="verdict-row">
      <section
        class="card verdict-card"
        aria-labelledby="verdict-heading"
        data-testid="verdict"
        data-verdict={missing ? 'missing-class' : (loo?.verdict ?? 'pending')}
      >
        <h2 id="verdict-heading">Leave-one-out check</h2>
        {missing && (
          <p class="verdict-line chance" role="alert" data-testid="missing-class">
            ⚠ {missing}
          </p>
        )}
        {!missing && !loo && <p class="hint">Checking each observation against the probe fitted on the others…</p>}
        {!missing && loo && (
          <>
            <Numbers loo={loo} />
            <Conclusion loo={loo} />
          </>
        )}
        <p class="caption">
          Each observation is judged by the probe fitted on all the others, in closed form (no refits). The AUROC’s{' '}
          {loo ? `${percent(loo.confidence)} ` : ''}interval joins DeLong’s normal interval with Newcombe’s score
          interval, which stays honest at AUROC 0 or 1 and at few observations; ± on the log loss is that level’s normal
          quantile times sd / √O.
        </p>
      </section>
      <LabelSuggestions />
    </div>
  );
}
