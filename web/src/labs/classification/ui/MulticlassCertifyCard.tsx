// The softmax model's certificate at x*, under its maps: p(class | x*) for every class; for every class
// the certified interval of its smallest and of its largest probability over the box x* ± γ (the root
// bounds at once, each class then refined by branch and bound, its splits counted live); and the safety
// verdict of the predicted class: certified (its margin over every other class stays > 0 on the whole
// box), refuted (a witness where another class wins), or unknown, with the margin interval.
import { PixelImage } from './PixelImage.tsx';
import {
  certificateOf,
  multiclassCertification,
  safetyOf,
  stoppedOnTime,
  type ClassInterval,
  type MulticlassCertification,
} from '../state/multiclass_store.ts';
import { data } from '../state/classification_store.ts';
import { certificateMismatch, point, robustnessProblems, robustnessSettings } from '../state/certify_store.ts';
import { CLASS_COLORS } from '../plots/multiclass_plots.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { movedCoordinates, STATUS_TEXT } from './certify_text.ts';
import type { ClassificationData } from '../state/classification_data.ts';
import '../../../common/ui/certify.css';

const interval = (lower: number, upper: number) => `[${formatMeasure(lower)}, ${formatMeasure(upper)}]`;

const STATE_TEXT: Record<ClassInterval['state'], string> = {
  waiting: 'root bounds (no split yet)',
  running: 'refining',
  done: '',
  cancelled: 'cancelled: the root bounds hold',
  failed: 'failed',
  'out-of-time': 'not refined: the time limit was used up (the root bounds hold)',
};

/** One search of a refined class in words, when the time limit stopped it. */
function cutShort(name: string, x: { status: string; iterations: number }): string | null {
  if (x.status !== 'time_limit') return null;
  return x.iterations === 0
    ? `${name} not started`
    : `${name} stopped after ${x.iterations.toLocaleString('en-US')} box${x.iterations === 1 ? '' : 'es'} split`;
}

/** What the time limit left undone, in words (null when it cut nothing): the classes finished, those whose
 * searches it stopped (and which), those never refined, and the safety margin's search. */
export function timeLimitText(m: MulticlassCertification, d: Pick<ClassificationData, 'classNames'>): string | null {
  if (!stoppedOnTime(m)) return null;
  const finished: string[] = [],
    stopped: string[] = [],
    untouched: string[] = [];
  for (const c of m.classes) {
    const name = `class ${d.classNames[c.classIndex]}`;
    if (c.state === 'out-of-time') untouched.push(name);
    else if (c.result) {
      const k = c.result.certificate;
      const cut = [cutShort('π_min', k.minimum), cutShort('π_max', k.maximum)].filter((t) => t !== null);
      if (cut.length) stopped.push(`${name} (${cut.join(', ')})`);
      else finished.push(name);
    }
  }
  const s = safetyOf(m);
  const parts = [
    `Stopped at the time limit of ${Number(m.settings.timeLimitSeconds.toPrecision(4))} s` +
      (m.seconds !== undefined ? ` (${m.seconds.toFixed(1)} s in all, fits included).` : '.'),
    finished.length ? `Finished: ${finished.join(', ')}.` : '',
    stopped.length ? `Stopped on time: ${stopped.join('; ')}.` : '',
    untouched.length ? `Not refined: ${untouched.join(', ')} (root bounds only).` : '',
    s && s.stop === 'time_limit'
      ? `The safety margin's search stopped on time too: the margin lies in ${interval(s.marginLower, s.marginUpper)}.`
      : '',
    'Every interval shown is still certified, only wider where a search stopped; a longer time limit refines the rest.',
  ];
  return parts.filter((t) => t).join(' ');
}

function ClassRow({ c, d }: { c: ClassInterval; d: ClassificationData }) {
  const cert = certificateOf(c),
    name = d.classNames[c.classIndex];
  const stop = c.result
    ? `${STATUS_TEXT[c.result.certificate.minimum.status]}; ${STATUS_TEXT[c.result.certificate.maximum.status]}`
    : c.state === 'running' && c.progress
      ? `refining: ${c.progress.done.toLocaleString('en-US')} boxes split`
      : STATE_TEXT[c.state];
  return (
    <tr
      data-testid={`multiclass-interval-${c.classIndex}`}
      data-state={c.state}
      data-value={cert ? `${cert.minimum.lower},${cert.minimum.upper},${cert.maximum.lower},${cert.maximum.upper}` : ''}
    >
      <th scope="row">
        <span class="swatch" style={{ background: CLASS_COLORS[c.classIndex % CLASS_COLORS.length] }} /> class {name}
      </th>
      <td class="num">{cert ? formatMeasure(cert.probabilityAtPoint[c.classIndex]) : '…'}</td>
      <td class="num">{cert ? interval(cert.minimum.lower, cert.minimum.upper) : '…'}</td>
      <td class="num">{cert ? interval(cert.maximum.lower, cert.maximum.upper) : '…'}</td>
      <td>{stop}</td>
    </tr>
  );
}

/** The verdict in words. */
export function safetyText(
  m: MulticlassCertification,
  d: Pick<ClassificationData, 'classNames' | 'inputNames'>,
): string {
  const s = safetyOf(m);
  if (!s) return 'Computing the root bounds…';
  const top = d.classNames[s.predictedClass],
    margin = interval(s.marginLower, s.marginUpper),
    box = `x* ± ${formatMeasure(m.settings.gamma)}`;
  if (s.status === 'certified') {
    return `Certified: class ${top} is predicted everywhere in the box ${box}. Its probability minus the largest other class's is at least ${formatMeasure(s.marginLower)} there (margin ∈ ${margin}).`;
  }
  if (s.status === 'refuted') {
    const wp = Array.from(s.witnessProbabilities),
      winner = wp.indexOf(Math.max(...wp));
    return `Refuted: at ${movedCoordinates(d.inputNames, s.witness, m.point)}, inside the box, class ${d.classNames[winner]} has p = ${formatMeasure(wp[winner])} against class ${top}'s ${formatMeasure(wp[s.predictedClass])}: the prediction changes (margin ∈ ${margin}).`;
  }
  return `Unknown so far: the margin of class ${top} over the others lies in ${margin}, which contains 0${m.state === 'running' ? ' (still refining)' : '; a smaller tolerance, more iterations or more time can decide it'}.`;
}

export function MulticlassCertifyCard() {
  const m = multiclassCertification.value,
    d = data.value;
  if (!d) return null;
  if (!m) {
    return (
      <p class="hint robustness-empty">
        Click a point ({d.x.cols <= 2 ? 'on a map' : 'a held-out point'}) or type x* under Certified robustness to
        certify every class's probability over the box x* ± γ and whether the predicted class can change there.
      </p>
    );
  }
  const s = safetyOf(m);
  const onTime = timeLimitText(m, d);
  const current = robustnessSettings.value;
  const mismatch = certificateMismatch(
    m,
    current,
    point.value?.x ?? null,
    robustnessProblems('certify', current).filter((p) => !p.startsWith('no moving coordinate')),
  );
  return (
    <div
      class={`robustness-card${mismatch ? ' stale' : ''}`}
      data-testid="multiclass-certificate"
      data-state={m.state}
      data-stale={mismatch ? 'true' : undefined}
    >
      {mismatch && (
        <p class="field-error" data-testid="robustness-mismatch">
          {mismatch}
        </p>
      )}
      <h3>
        Certificate at x* (γ = {formatMeasure(m.settings.gamma)}, {m.settings.dims.length} moving coordinate
        {m.settings.dims.length === 1 ? '' : 's'}
        {d.imageWidth ? ', pixels kept in [0, 1]' : ''})
      </h3>
      <table class="learned-table robustness-table">
        <thead>
          <tr>
            <th scope="col">class</th>
            <th scope="col" class="num">
              p at x*
            </th>
            <th scope="col" class="num">
              π_min certified in
            </th>
            <th scope="col" class="num">
              π_max certified in
            </th>
            <th scope="col">stop</th>
          </tr>
        </thead>
        <tbody>
          {m.classes.map((c) => (
            <ClassRow c={c} d={d} />
          ))}
        </tbody>
      </table>
      <p
        class={`verdict verdict-${s?.status === 'certified' ? 'no' : s?.status === 'refuted' ? 'yes' : 'undecided'}`}
        data-testid="multiclass-safety"
        data-value={s ? `${s.status},${s.marginLower},${s.marginUpper}` : ''}
      >
        {safetyText(m, d)}
      </p>
      {onTime && (
        <p class="hint time-limit-note" role="status" data-testid="multiclass-time-limit">
          {onTime}
        </p>
      )}
      {s?.status === 'refuted' && d.imageWidth && (
        <figure class="witness-images" data-testid="multiclass-witness-images">
          <PixelImage pixels={m.point} side={d.imageWidth} label="x*, the image certified" />{' '}
          <PixelImage
            pixels={s.witness}
            side={d.imageWidth}
            changedFrom={m.point}
            label="the witness: the image inside the box whose prediction changes"
            testId="multiclass-witness-image"
          />
          <figcaption class="hint">x* (left) and the witness (right); the pixels that move are outlined.</figcaption>
        </figure>
      )}
      <p class="hint">
        π_min and π_max are a class's smallest and largest probability over the box: the true value lies in each
        interval (Blaas et al. 2020, Prop. 3–4). Each class's search also runs the safety search; the cost grows
        exponentially with the number of classes and fast with the moving coordinates. The time limit is the wall time
        of the whole certificate, every class together.
        {m.state === 'done' && m.seconds !== undefined ? ` Done in ${m.seconds.toFixed(2)} s (fits included).` : ''}
        {m.state === 'cancelled' ? ' Cancelled: the intervals shown are still valid, only wider.' : ''}
      </p>
    </div>
  );
}
