// "Explain a point" in the Classification tab: model A's certified feature sensitivity Δ_γ beside LIME's
// coefficients, as heat maps on the image when the data are images (8 × 8 digits) and as bars otherwise;
// the γ slider; the global view over M points (arrows on 2-D data as the paper's Fig. 6, bars for tabular
// data, a heat map for images); exports of every Δ interval and LIME coefficient (CSV, the header of
// `gpprobe explain`) and of the figure (PNG, SVG).
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  cancelExplanation,
  explain,
  EXPLAIN_FORM,
  explaining,
  explainResultCsv,
  explainSettings,
  globalExplanation,
  imageOf,
  localExplanation,
  updateExplainSettings,
  type ExplainResult,
} from '../state/explain_store.ts';
import { data } from '../state/classification_store.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';
import { saveBlob } from '../../../common/ui/download.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { MinNumberField } from '../../../common/ui/MinNumberField.tsx';
import { family } from '../state/classification_store.ts';
import { classCount } from '../state/classification_data.ts';
import {
  arrows,
  bars,
  beside,
  drawFigure,
  figureSvg,
  heatMap,
  imageFigure,
  type Figure,
} from '../plots/explain_plots.ts';
import './explain.css';

const LIME_TITLE = 'LIME (local linear surrogate)';

/** The figures of a result: the Δ map (or bars) and LIME's, and for images the image first. */
export function figuresOf(
  r: ExplainResult,
  names: string[],
  includeConstant = false,
): { image: Figure | null; delta: Figure; lime: Figure | null } {
  const e = r.explanation,
    k = e.features.length,
    m = e.points;
  // Features constant or nearly constant in training: hatched on the maps and out of their colour scale,
  // left out of the bars, unless included.
  const constant = setApart(e);
  const hatched = !includeConstant && constant.some(Boolean) ? constant : undefined;
  const local = r.kind === 'local';
  const delta = local ? e.delta.subarray(0, k) : e.meanDelta;
  const lower = local ? e.deltaLower.subarray(0, k) : e.meanDeltaLower,
    upper = local ? e.deltaUpper.subarray(0, k) : e.meanDeltaUpper;
  let lime: Float64Array | null = null;
  if (e.lime.length) {
    lime = new Float64Array(k);
    for (let p = 0; p < m; p++) for (let a = 0; a < k; a++) lime[a] += e.lime[p * k + a] / m;
  }
  const deltaTitle = `${local ? '' : 'mean '}certified Δ_γ, γ = ${r.settings.gamma}`;
  const limeTitle = `${local ? '' : 'mean '}${LIME_TITLE}`;
  if (r.image) {
    const side = r.image,
      pixels = local ? r.points : meanRows(r.points, m, k);
    return {
      image: imageFigure(pixels, side, local ? `point ${r.indices[0]}` : `mean of ${m} points`),
      delta: heatMap(delta, side, deltaTitle, { pixels, hatched }),
      lime: lime
        ? heatMap(lime, side, limeTitle, {
            pixels,
            mask: local ? Array.from(pixels, (v) => v === 0) : undefined,
            hatched,
          })
        : null,
    };
  }
  if (!local && k === 2) {
    return {
      image: null,
      delta: arrows([delta[0], delta[1]], lime ? [lime[0], lime[1]] : null, [names[0], names[1]]),
      lime: null,
    };
  }
  const kept = [...Array(k).keys()].filter((a) => !hatched?.[a]);
  const pick = (v: ArrayLike<number>) => Float64Array.from(kept, (a) => v[a]);
  return {
    image: null,
    delta: bars(
      pick(delta),
      kept.map((a) => names[a]),
      deltaTitle,
      { lower: pick(lower), upper: pick(upper) },
    ),
    lime: lime
      ? bars(
          pick(lime),
          kept.map((a) => names[a]),
          limeTitle,
        )
      : null,
  };
}

/** Per feature: constant or nearly constant in training (both are set apart). */
function setApart(e: ExplainResult['explanation']): boolean[] {
  return e.features.map((_, a) => Boolean(e.constantInTraining?.[a] || e.nearlyConstantInTraining?.[a]));
}

/** Why features constant or nearly constant in training are set apart, and the click that brings them back. */
function ConstantNote({
  r,
  names,
  included,
  onToggle,
}: {
  r: ExplainResult;
  names: string[];
  included: boolean;
  onToggle: () => void;
}) {
  const e = r.explanation;
  const constant = e.features.filter((_, a) => e.constantInTraining?.[a]);
  const nearly = e.features.flatMap((j, a) => (e.nearlyConstantInTraining?.[a] ? [{ j, rows: e.varyingRows[a] }] : []));
  if (constant.length === 0 && nearly.length === 0) return null;
  const list = constant.slice(0, 12).map((j) => names[j] ?? `x${j + 1}`);
  const nearList = nearly.slice(0, 12).map(({ j, rows }) => `${names[j] ?? `x${j + 1}`} (${rows})`);
  const share = r.settings.nearlyConstantShare;
  return (
    <p class="hint explain-constant" data-testid={`explain-${r.kind}-constant`}>
      {constant.length > 0 && (
        <>
          {constant.length === 1 ? '1 feature is' : `${constant.length} features are`} constant in the training data (
          {list.join(', ')}
          {constant.length > list.length ? ', …' : ''}).{' '}
        </>
      )}
      {nearly.length > 0 && (
        <span data-testid={`explain-${r.kind}-nearly-constant`}>
          {nearly.length === 1 ? '1 feature is' : `${nearly.length} features are`} nearly constant: off their most
          common value in just one or fewer than {+(share * 100).toPrecision(3)} % of the training rows (in brackets:
          how many) — {nearList.join(', ')}
          {nearly.length > nearList.length ? ', …' : ''}. A length-scale learns only from the pairs of rows that differ
          in its feature, so theirs hardly moved in training.{' '}
        </span>
      )}
      Moving {constant.length + nearly.length === 1 ? 'it' : 'one'} moves the point away from (nearly) all the data
      along a direction the data (hardly) explored, so the model drifts back to its prior there: its Δ measures distance
      from the data, not evidence.{' '}
      {included
        ? 'They are shown and ranked like the others.'
        : r.image
          ? 'Hatched, and left out of the colour scale and the ranking.'
          : 'Left out of the bars and the ranking.'}{' '}
      <button type="button" class="small link" data-testid={`explain-${r.kind}-include-constant`} onClick={onToggle}>
        {included ? 'Set them apart' : 'Include them'}
      </button>
    </p>
  );
}

function meanRows(x: Float64Array, m: number, k: number): Float64Array {
  const out = new Float64Array(k);
  for (let p = 0; p < m; p++) for (let a = 0; a < k; a++) out[a] += x[p * k + a] / m;
  return out;
}

function FigureCanvas({ figure, testId, label }: { figure: Figure; testId: string; label: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (ref.current) drawFigure(ref.current, figure);
  }, [figure]);
  return <canvas ref={ref} data-testid={testId} role="img" aria-label={label} class="explain-canvas" />;
}

function exportPng(figure: Figure, name: string): void {
  const canvas = document.createElement('canvas');
  drawFigure(canvas, figure, 2);
  canvas.toBlob((blob) => {
    if (blob) saveBlob(blob, name);
  }, 'image/png');
}

/** 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 133rd. */
export function ordinal(n: number): string {
  const tens = n % 100,
    last = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : last === 1 ? 'st' : last === 2 ? 'nd' : last === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

function Result({ r }: { r: ExplainResult }) {
  const d = data.value;
  const names = d ? d.inputNames : r.explanation.features.map((j) => `x${j + 1}`);
  const [includeConstant, setIncludeConstant] = useState(false);
  const f = figuresOf(
    r,
    r.explanation.features.map((j) => names[j] ?? `x${j + 1}`),
    includeConstant,
  );
  const all = beside([f.image, f.delta, f.lime].filter((x): x is Figure => x !== null));
  const base = r.kind === 'local' ? `explain-point-${r.indices[0]}` : `explain-global-${r.indices.length}`;
  const e = r.explanation;
  const what = r.classIndex === null ? 'p(y = +1)' : `p(class ${d?.classNames[r.classIndex] ?? r.classIndex})`;
  const gammaNow = explainSettings.value.gamma;
  const stale = gammaNow !== r.settings.gamma;
  return (
    <div
      class={`explain-result${stale ? ' stale' : ''}`}
      data-testid={`explain-${r.kind}`}
      data-stale={stale || undefined}
    >
      {stale && (
        <p class="field-error explain-stale" data-testid={`explain-${r.kind}-stale`}>
          These maps are at γ = {formatMeasure(r.settings.gamma)}, not the slider's γ = {formatMeasure(gammaNow)}.{' '}
          <button type="button" class="small" disabled={explaining.value !== null} onClick={() => void explain(r.kind)}>
            Recompute at γ = {formatMeasure(gammaNow)}
          </button>
        </p>
      )}
      <p class="hint">
        {r.kind === 'local'
          ? `Training row ${r.indices[0]} (a row the model was fitted on): ${what} = ${formatMeasure(e.values[0])} under ${r.modelName}.`
          : `Means over ${r.indices.length} training rows (every ${ordinal(Math.max(1, Math.round((d?.labels.length ?? 1) / r.indices.length)))} row) of ${what} under ${r.modelName}.`}
        {r.image
          ? ' Pixels clipped to [0, 1]; LIME switches a pixel off to 0 (grey: a pixel already 0, which LIME cannot see).'
          : ''}
      </p>
      <ConstantNote
        r={r}
        names={names}
        included={includeConstant}
        onToggle={() => setIncludeConstant(!includeConstant)}
      />
      <div class="explain-figures">
        {f.image && <FigureCanvas figure={f.image} testId={`explain-${r.kind}-image`} label="the image explained" />}
        <FigureCanvas
          figure={f.delta}
          testId={r.kind === 'local' ? 'explain-delta-map' : 'explain-global-delta'}
          label="certified feature sensitivity"
        />
        {f.lime && (
          <FigureCanvas
            figure={f.lime}
            testId={r.kind === 'local' ? 'explain-lime-map' : 'explain-global-lime'}
            label={LIME_TITLE}
          />
        )}
      </div>
      <p class="hint explain-legend" data-testid={`explain-${r.kind}-legend`}>
        Red: raising the feature raises {what} near the point; blue: it lowers it; each map is scaled to its own largest
        value (its legend). Δ_γ is certified: each value lies in an interval from branch and bound on the one-sided
        boxes x ± γ eᵢ
        {e.unconverged > 0 ? ` (${e.unconverged} searches stopped at their limit: their intervals are wider)` : ''}.
        LIME fits a linear model to {r.settings.limeSamples} random on/off switches of the features: an approximation,
        not a bound.
        {!r.image &&
          " A LIME coefficient is the effect of switching a feature from the training mean to the point's value, not a slope: its sign says which side of the mean the point lies on as much as where p rises."}
        {!r.image &&
          r.kind === 'global' &&
          e.features.length === 2 &&
          " Arrows: the directions of the mean Δ and of LIME's mean coefficients, each scaled to the same length (the paper's Fig. 6)."}
      </p>
      <div class="row">
        <button
          type="button"
          class="small"
          data-testid={`explain-${r.kind}-csv`}
          onClick={() => saveBlob(new Blob([explainResultCsv(r)], { type: 'text/csv' }), `${base}.csv`)}
        >
          CSV
        </button>
        <button
          type="button"
          class="small"
          data-testid={`explain-${r.kind}-png`}
          onClick={() => exportPng(all, `${base}.png`)}
        >
          PNG
        </button>
        <button
          type="button"
          class="small"
          data-testid={`explain-${r.kind}-svg`}
          onClick={() => saveBlob(new Blob([figureSvg(all)], { type: 'image/svg+xml' }), `${base}.svg`)}
        >
          SVG
        </button>
        <span class="hint">{(r.seconds * 1000).toFixed(0)} ms</span>
      </div>
    </div>
  );
}

export function ExplainPanel() {
  const d = data.value,
    s = explainSettings.value,
    busy = explaining.value;
  const problems = problemsIn(EXPLAIN_FORM);
  if (!d) return null;
  const n = d.labels.length,
    image = imageOf(d);
  const local = localExplanation.value,
    global = globalExplanation.value;
  const softmax = family.value === 'softmax',
    classes = classCount(d);
  return (
    <section class="panel explain-panel" data-testid="explain-panel">
      <h3>Explain</h3>
      <p class="hint">
        Why does {softmax ? 'the softmax model' : 'model A'} decide as it does at a point: each feature's certified
        sensitivity Δ_γ beside LIME.
        {image ? ` The data are ${image} × ${image} images: shown as heat maps on the image.` : ''}
      </p>
      <label class="field">
        <span>
          γ = {formatMeasure(s.gamma)}
          {(local && local.settings.gamma !== s.gamma) || (global && global.settings.gamma !== s.gamma)
            ? ' (the maps below are at another γ: recompute them)'
            : ''}
        </span>
        <input
          type="range"
          aria-label="explain gamma slider"
          min={0.01}
          max={image ? 1 : 2}
          step={0.01}
          value={s.gamma}
          onInput={(e) => updateExplainSettings({ gamma: Number(e.currentTarget.value) })}
        />
      </label>
      {softmax && (
        <label class="field">
          <span>class explained</span>
          <select
            aria-label="explain class"
            data-testid="explain-class"
            value={s.classIndex === null ? 'predicted' : String(s.classIndex)}
            onChange={(e) =>
              updateExplainSettings({
                classIndex: e.currentTarget.value === 'predicted' ? null : Number(e.currentTarget.value),
              })
            }
          >
            <option value="predicted">the predicted class (over M points: the one predicted most)</option>
            {Array.from({ length: classes }, (_, k) => (
              <option value={String(k)}>class {d.classNames[k] ?? k}</option>
            ))}
          </select>
        </label>
      )}
      <div class="row">
        <MinNumberField
          label="point"
          ariaLabel="explain point"
          form={EXPLAIN_FORM}
          value={s.index}
          min={0}
          step="1"
          onChange={(index) => updateExplainSettings({ index })}
        />
        <MinNumberField
          label="LIME samples"
          ariaLabel="explain lime samples"
          form={EXPLAIN_FORM}
          value={s.limeSamples}
          min={0}
          step="1"
          onChange={(limeSamples) => updateExplainSettings({ limeSamples: Math.round(limeSamples) })}
        />
        <MinNumberField
          label="nearly-constant share"
          ariaLabel="explain nearly constant share"
          form={EXPLAIN_FORM}
          value={s.nearlyConstantShare}
          min={0}
          onChange={(nearlyConstantShare) => updateExplainSettings({ nearlyConstantShare })}
        />
      </div>
      {problems.length > 0 && (
        <ul class="field-error">
          {problems.map((x) => (
            <li>{x}</li>
          ))}
        </ul>
      )}
      <div class="row">
        <button
          type="button"
          class="small"
          disabled={busy !== null || s.index >= n}
          onClick={() => void explain('local')}
        >
          Explain point {s.index}
        </button>
        <MinNumberField
          label="M"
          ariaLabel="explain global points"
          form={EXPLAIN_FORM}
          value={s.globalPoints}
          min={1}
          step="1"
          onChange={(globalPoints) => updateExplainSettings({ globalPoints: Math.round(globalPoints) })}
        />
        <button type="button" class="small" disabled={busy !== null} onClick={() => void explain('global')}>
          Global view
        </button>
        {busy && (
          <button type="button" class="small" onClick={cancelExplanation}>
            Cancel
          </button>
        )}
      </div>
      {local && <Result r={local} />}
      {global && <Result r={global} />}
    </section>
  );
}
