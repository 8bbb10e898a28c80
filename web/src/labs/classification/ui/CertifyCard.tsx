// One model's certificate at x*, under its maps: p(y = 1) at x*, the root bounds over the box (they
// arrive first), branch and bound's intervals converging live on a small plot, then both extremes'
// certified intervals with iterations and stop reasons, GPFGS, and the verdict in words.
import { useMemo } from 'preact/hooks';
import type {
  Interval,
  ProbabilityExtreme,
  RobustnessCertificate,
} from '../../../engine/certify/classification_certify.ts';
import { convergencePlot } from '../plots/certify_plots.ts';
import { data, type Side } from '../state/classification_store.ts';
import {
  certificateMismatch,
  certificates,
  isStale,
  point,
  robustnessProblems,
  robustnessSettings,
  type SideCertificate,
} from '../state/certify_store.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { coordinates, STATUS_TEXT, verdictText } from './certify_text.ts';
import { adversarialSide } from '../plots/certify_plots.ts';
import '../../../common/ui/certify.css';

const range = (i: Interval, name: string) => (
  <span data-testid={name} data-value={`${i.lower},${i.upper}`}>
    [{formatMeasure(i.lower)}, {formatMeasure(i.upper)}]
  </span>
);

function Extreme({ name, x, attained }: { name: string; x: ProbabilityExtreme; attained: 'lower' | 'upper' }) {
  return (
    <tr data-testid={`robustness-${name}`} data-value={`${x.lower},${x.upper},${x.iterations},${x.status}`}>
      <th scope="row">{name === 'minimum' ? 'π_min' : 'π_max'}</th>
      <td class="num">
        [{formatMeasure(x.lower)}, {formatMeasure(x.upper)}]
      </td>
      <td class="num">{formatMeasure(x[attained])}</td>
      <td class="num">{x.iterations}</td>
      <td>{STATUS_TEXT[x.status]}</td>
    </tr>
  );
}

function Root({ c, gamma }: { c: RobustnessCertificate; gamma: number }) {
  return (
    <p class="hint robustness-root" data-testid="robustness-root">
      p(y = 1 | x*) = <strong data-value={String(c.probabilityAtPoint)}>{formatMeasure(c.probabilityAtPoint)}</strong>.
      Over the whole box x* ± {formatMeasure(gamma)} at once: p(y = 1) ∈ {range(c.root.probability, 'root-probability')}
      , latent mean ∈ {range(c.root.mean, 'root-mean')}, latent variance ∈ {range(c.root.variance, 'root-variance')};
      the GPFGS attack reaches p = {formatMeasure(c.gpfgs.probability)}.
    </p>
  );
}

/** What the time limit (the wall time of both searches together, the adversarial one first) left undone, in words;
 * null when it stopped nothing. */
export function binaryTimeLimitText(c: RobustnessCertificate, limitSeconds: number): string | null {
  const cut = (['minimum', 'maximum'] as const).filter((side) => c[side].status === 'time_limit');
  if (cut.length === 0) return null;
  const name = (side: 'minimum' | 'maximum') => (side === 'minimum' ? 'π_min' : 'π_max');
  const said = cut.map((side) =>
    c[side].iterations === 0
      ? `${name(side)} was not searched (its root bound holds)`
      : `${name(side)} stopped after ${c[side].iterations.toLocaleString('en-US')} boxes split`,
  );
  return (
    `Stopped at the time limit of ${Number(limitSeconds.toPrecision(4))} s (both searches together, the adversarial one first): ` +
    `${said.join('; ')}. The intervals are still certified, only wider; a longer time limit narrows them.`
  );
}

function Result({ entry }: { entry: SideCertificate }) {
  const d = data.value!,
    c = entry.result!.certificate;
  const onTime = binaryTimeLimitText(c, entry.settings.timeLimitSeconds);
  return (
    <>
      <table class="learned-table robustness-table">
        <thead>
          <tr>
            <th scope="col">extreme</th>
            <th scope="col" class="num">
              certified interval
            </th>
            <th scope="col" class="num">
              found (witness)
            </th>
            <th scope="col" class="num">
              boxes split
            </th>
            <th scope="col">stop</th>
          </tr>
        </thead>
        <tbody>
          <Extreme name="minimum" x={c.minimum} attained="upper" />
          <Extreme name="maximum" x={c.maximum} attained="lower" />
        </tbody>
      </table>
      <p class={`verdict verdict-${c.verdictCanFlip}`} data-testid="robustness-verdict" data-value={c.verdictCanFlip}>
        {verdictText(c, entry.point, d.classNames, d.inputNames)}
      </p>
      {onTime && (
        <p class="hint" role="status" data-testid="robustness-time-limit">
          {onTime}
        </p>
      )}
      <p class="hint">
        GPFGS (one fast-gradient-sign step of γ): p(y = 1) = {formatMeasure(c.gpfgs.probability)} at{' '}
        {coordinates(d.inputNames, c.gpfgs.point)}. Certified in {(entry.result!.seconds * 1000).toFixed(0)} ms (fit
        included).
      </p>
    </>
  );
}

/** After Cancel: what the intervals reached already decide. The found value of the adversarial extreme
 * (π_min's upper end, π_max's lower end) on the other side of ½ proves the class can flip; its certified
 * end on x*'s side proves it cannot; otherwise nothing is decided yet. */
export function cancelledVerdict(entry: SideCertificate): string | null {
  if (entry.state !== 'cancelled' || !entry.root) return null;
  const side = adversarialSide(entry.root),
    last = entry.trace.filter((t) => t.extremum === side).at(-1);
  const interval = last ?? entry.root[side];
  const positive = entry.root.probabilityAtPoint > 0.5,
    name = side === 'minimum' ? 'π_min' : 'π_max';
  const found = side === 'minimum' ? interval.upper : interval.lower,
    certified = side === 'minimum' ? interval.lower : interval.upper;
  if (last && (positive ? found < 0.5 : found > 0.5)) {
    return (
      `Cancelled, but already decided: the class can flip. A point of the box has p(y = 1) = ${formatMeasure(found)}, on the other side of ½ from x* ` +
      `(its place is not kept when cancelled: certify again to the end for the witness).`
    );
  }
  if (positive ? certified > 0.5 : certified < 0.5) {
    return (
      `Cancelled, but already decided: certified, no point within γ = ${formatMeasure(entry.settings.gamma)} changes the class: ${name} ` +
      `${positive ? `≥ ${formatMeasure(certified)} > ½` : `≤ ${formatMeasure(certified)} < ½`}.`
    );
  }
  return `Cancelled before a verdict: ${name} ∈ [${formatMeasure(interval.lower)}, ${formatMeasure(interval.upper)}] still contains ½.`;
}

const WAITING: Record<SideCertificate['state'], string> = {
  waiting: 'waits for the other model…',
  running: 'branch and bound running…',
  done: '',
  cancelled: 'cancelled',
  failed: 'failed',
};

export function CertifyCard({ side, name }: { side: Side; name: string }) {
  const entry = certificates.value[side];
  const spec = useMemo(
    () =>
      entry &&
      convergencePlot(`Model ${name}: branch and bound`, entry.root, entry.trace, entry.result?.certificate ?? null),
    [entry?.root, entry?.trace, entry?.result, name],
  );
  if (!entry)
    return <p class="hint robustness-empty">Click a point on a map to certify the model's robustness there.</p>;
  const last = entry.trace.at(-1);
  const current = robustnessSettings.value;
  const mismatch = certificateMismatch(
    entry,
    current,
    point.value?.x ?? null,
    robustnessProblems('certify', current).filter((p) => !p.startsWith('no moving coordinate')),
  );
  return (
    <div
      class={`robustness-card${mismatch ? ' stale' : ''}`}
      data-testid={`robustness-${name}`}
      data-state={entry.state}
      data-stale={mismatch ? 'true' : undefined}
    >
      <h3>Robustness at x*{isStale(entry, side) ? ' (model changed since: certify again)' : ''}</h3>
      {mismatch && (
        <p class="field-error" data-testid="robustness-mismatch">
          {mismatch}
        </p>
      )}
      {entry.root ? (
        <Root c={entry.root} gamma={entry.settings.gamma} />
      ) : (
        <p class="hint">{entry.state === 'waiting' ? WAITING.waiting : 'fitting and bounding the box…'}</p>
      )}
      {entry.state !== 'done' && entry.state !== 'waiting' && (
        <p class="hint" data-testid="robustness-status">
          {WAITING[entry.state]}
          {last
            ? ` ${last.extremum === 'minimum' ? 'π_min' : 'π_max'} ∈ [${formatMeasure(last.lower)}, ${formatMeasure(last.upper)}] after ${last.iterations} splits${entry.state === 'cancelled' ? ' (still valid)' : ''}`
            : ''}
          {entry.error ? `: ${entry.error}` : ''}
        </p>
      )}
      {entry.result && <Result entry={entry} />}
      {cancelledVerdict(entry) && (
        <p class="verdict verdict-cancelled" data-testid="robustness-cancelled-verdict">
          {cancelledVerdict(entry)}
        </p>
      )}
      {spec && (
        <PlotView
          spec={spec}
          height={200}
          testId={`robustness-${name}-convergence`}
          caption="Solid: the certified bound of each extreme (blue π_min, vermillion π_max); dashed in its colour: the value found at its witness; they close to the tolerance. Grey: p = ½."
        />
      )}
    </div>
  );
}
