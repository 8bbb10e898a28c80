// The softmax model of C classes (the lab's choice when the labels have more than two classes): its
// hyperparameters (one kernel shared by the classes, as the binary models' fields), its evidence, and
// what it predicts. With one or two features: the map of the predicted class (its colour, its
// probability as saturation, the decision boundaries drawn), one small map per class probability, the
// predictive entropy and the latent variance; hover for all C numbers, a click certifies there. With
// more features (the digits' 64 pixels): the held-out points as thumbnails (images) or a table, each
// with its C probabilities and predicted class; a click certifies that point.
import { useMemo } from 'preact/hooks';
import { gridCell, heldText } from '../plots/classification_plots.ts';
import {
  CLASS_COLORS,
  classProbabilityMap,
  entropyMap,
  latentVarianceMap,
  predictedClasses,
  predictedClassMap,
  type MulticlassMapInput,
} from '../plots/multiclass_plots.ts';
import { classCount, classIndices, type ClassificationData } from '../state/classification_data.ts';
import { data, fitting, grid, plane } from '../state/classification_store.ts';
import { point } from '../state/certify_store.ts';
import {
  mapsShown,
  multiclassCertification,
  multiclassFit,
  multiclassModel,
  pickMulticlassPoint,
  setMulticlassHyperparameter,
} from '../state/multiclass_store.ts';
import type { MulticlassPredictionSummary } from '../worker/multiclass_protocol.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { LogScaleField } from '../../../common/ui/LogScaleField.tsx';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import type { Mark, PlotSpec } from '../../../common/plots/plot_model.ts';
import { MulticlassCertifyCard } from './MulticlassCertifyCard.tsx';

/** "p(0) 0.91 · p(1) 0.05 · p(2) 0.04 · entropy 0.35 · predicted 0": all C numbers of row i. */
export function probabilitiesText(
  d: Pick<ClassificationData, 'classNames'>,
  p: MulticlassPredictionSummary,
  i: number,
): string {
  const C = p.classes,
    { predicted } = predictedClasses(p.probability.subarray(i * C, (i + 1) * C), C);
  return `${d.classNames.map((name, c) => `p(${name}) ${formatMeasure(p.probability[i * C + c])}`).join(' · ')} · entropy ${formatMeasure(p.entropy[i])} · predicted ${d.classNames[predicted[0]]}`;
}

function latentText(d: Pick<ClassificationData, 'classNames'>, p: MulticlassPredictionSummary, i: number): string {
  const C = p.classes;
  return `latent mean ${d.classNames.map((_, c) => formatMeasure(p.latentMean[i * C + c])).join(', ')} · variance ${d.classNames.map((_, c) => formatMeasure(p.latentVariance[i * C + c])).join(', ')}`;
}

/** An 8 × 8 (width × width) image of values in [0, 1] drawn dark on light, as a data URL-free canvas. */
function Thumbnail({ pixels, width, label }: { pixels: Float64Array; width: number; label: string }) {
  const ref = (canvas: HTMLCanvasElement | null) => {
    if (!canvas) return;
    const g = canvas.getContext('2d');
    if (!g) return;
    const image = g.createImageData(width, pixels.length / width);
    pixels.forEach((v, k) => {
      const shade = Math.round(255 * (1 - Math.min(1, Math.max(0, v))));
      image.data.set([shade, shade, shade, 255], 4 * k);
    });
    g.putImageData(image, 0, 0);
  };
  return (
    <canvas ref={ref} width={width} height={pixels.length / width} class="digit-image" role="img" aria-label={label} />
  );
}

const PAGE = 60;

/** The held-out points (or, for a CSV, the training points): thumbnails when they are images, else a table. */
function TestPoints({ d, p }: { d: ClassificationData; p: MulticlassPredictionSummary }) {
  const set = d.test ?? { x: d.x, labels: d.labels };
  const truth = classIndices(d, set.labels),
    C = p.classes,
    cols = set.x.cols;
  const { predicted } = useMemo(() => predictedClasses(p.probability, C), [p]);
  const rows = Math.min(PAGE, p.rows);
  let right = 0;
  for (let i = 0; i < p.rows; i++) if (predicted[i] === truth[i]) right += 1;
  const pick = (i: number) =>
    pickMulticlassPoint(Array.from(set.x.data.subarray(i * cols, (i + 1) * cols)), d.test ? null : i);
  const picked = point.value?.x;
  const isPicked = (i: number) => !!picked && picked.every((v, j) => v === set.x.data[i * cols + j]);
  const heading = d.test ? `${p.rows} held-out points` : `the ${p.rows} training points`;
  return (
    <div class="multiclass-points" data-testid="multiclass-points">
      <p class="hint">
        {heading}:{' '}
        <strong data-testid="multiclass-accuracy" data-value={String(right / p.rows)}>
          {((100 * right) / p.rows).toFixed(1)}%
        </strong>{' '}
        predicted right{rows < p.rows ? `; the first ${rows} shown` : ''}. Each shows its {C} class probabilities (bars
        in the classes' colours) and the predicted class; a wrong prediction is outlined in red. Click one to certify
        it.
      </p>
      <div class={d.imageWidth ? 'digit-grid' : 'point-table'}>
        {Array.from({ length: rows }, (_, i) => {
          const probabilities = Array.from({ length: C }, (_, c) => p.probability[i * C + c]);
          const title = `point ${i + 1}: class ${d.classNames[truth[i]]}\n${probabilitiesText(d, p, i)}`;
          return (
            <button
              type="button"
              class={`digit-cell${predicted[i] !== truth[i] ? ' wrong' : ''}${isPicked(i) ? ' picked' : ''}`}
              title={title}
              data-testid="multiclass-point"
              data-value={probabilities.join(',')}
              onClick={() => pick(i)}
              aria-label={`point ${i + 1}, class ${d.classNames[truth[i]]}, predicted ${d.classNames[predicted[i]]}: certify it`}
            >
              {d.imageWidth ? (
                <Thumbnail
                  pixels={set.x.data.subarray(i * cols, (i + 1) * cols)}
                  width={d.imageWidth}
                  label={`point ${i + 1}, class ${d.classNames[truth[i]]}`}
                />
              ) : (
                <span class="point-index">{i + 1}</span>
              )}
              <span class="bars" aria-hidden="true">
                {probabilities.map((v, c) => (
                  <span
                    class="bar"
                    style={{ height: `${Math.max(1, 100 * v)}%`, background: CLASS_COLORS[c % CLASS_COLORS.length] }}
                  />
                ))}
              </span>
              <span class="predicted" style={{ color: CLASS_COLORS[predicted[i] % CLASS_COLORS.length] }}>
                {d.classNames[predicted[i]]} · {formatMeasure(probabilities[predicted[i]])}
              </span>
            </button>
          );
        })}
      </div>
    </div>
  );
}

export function MulticlassView() {
  const d = data.value,
    p = plane.value,
    g = grid.value,
    fit = multiclassFit.value,
    m = multiclassModel.value,
    busy = fitting.value;
  const C = d ? classCount(d) : 0;
  const current = fit && d && p && g && fit.result.grid && fit.result.grid.rows === g.points.rows ? fit : null;
  const input = useMemo(
    (): MulticlassMapInput | null =>
      current && d && p && g
        ? {
            data: d,
            plane: p,
            grid: g,
            prediction: current.result.grid!,
            signalVariance: Math.max(...current.result.state.kernels.map((k) => k.signalVariance)),
          }
        : null,
    [current, d, p, g],
  );
  const maps = useMemo(
    () =>
      input && {
        predicted: predictedClassMap(input),
        perClass: Array.from({ length: C }, (_, c) => classProbabilityMap(input, c)),
        entropy: entropyMap(input),
        variance: latentVarianceMap(input),
      },
    [input, C],
  );
  if (!d || !p) return null;
  const s = fit?.result.state;
  const empty = s ? Array.from(s.classCounts).flatMap((n, c) => (n === 0 ? [d.classNames[c]] : [])) : [];
  const lengthScaleName = (j: number) =>
    m.lengthScales.length === 1 ? 'length-scale' : `length-scale of ${d.inputNames[j]}`;
  const point = (i: number): string[] => {
    const lines = [
      `point ${i + 1}: class ${d.classNames[classIndices(d)[i]]}`,
      d.inputNames.map((n, j) => `${n} = ${formatMeasure(d.x.data[i * d.x.cols + j])}`).join(', '),
    ];
    if (fit) lines.push(probabilitiesText(d, fit.result.data, i), latentText(d, fit.result.data, i));
    return lines;
  };
  const place = (x: number, y: number): string[] | null => {
    if (!current || !g) return null;
    const k = gridCell(g, x, y);
    if (k === null) return null;
    const at = g.points.data.subarray(k * g.points.cols, (k + 1) * g.points.cols),
      r = current.result.grid!;
    return [
      d.x.cols === 1
        ? `${d.inputNames[p.x]} = ${formatMeasure(at[p.x])}`
        : `${d.inputNames[p.x]} = ${formatMeasure(at[p.x])}, ${d.inputNames[p.y]} = ${formatMeasure(at[p.y])}`,
      probabilitiesText(d, r, k),
      latentText(d, r, k),
    ];
  };
  const pickTraining = (i: number | null) => {
    if (i !== null) pickMulticlassPoint(Array.from(d.x.data.subarray(i * d.x.cols, (i + 1) * d.x.cols)), i);
  };
  const pickPlace = (x: number, y: number) =>
    pickMulticlassPoint(
      p.held.map((h, j) => (j === p.x ? x : j === p.y && d.x.cols > 1 ? y : h)),
      null,
    );
  const held = heldText(d, p, d.x.cols);
  const where = held ? ` The plane of ${d.inputNames[p.x]} and ${d.inputNames[p.y]} with ${held}.` : '';
  // x* and its box (the moving plane coordinates ± γ) over every map, once a certificate is asked for.
  const cert = multiclassCertification.value;
  const overlay: Mark[] = [];
  if (cert && mapsShown(d)) {
    const at = cert.point,
      gamma = cert.settings.gamma,
      moving = (j: number) => cert.settings.dims.includes(j);
    const [x0, x1] = moving(p.x) ? [at[p.x] - gamma, at[p.x] + gamma] : [at[p.x], at[p.x]];
    const y = d.x.cols > 1 ? at[p.y] : 0.5,
      [y0, y1] = d.x.cols > 1 && moving(p.y) ? [y - gamma, y + gamma] : [y, y];
    overlay.push({ type: 'line', x: [x0, x1, x1, x0, x0], y: [y0, y0, y1, y1, y0], color: '#111111', width: 2 });
    overlay.push({
      type: 'symbols',
      x: [at[p.x]],
      y: [y],
      shape: 'diamond',
      color: '#111111',
      fill: '#ffffff',
      size: 11,
    });
  }
  const view = (spec: PlotSpec | null, testId: string, caption: string, height = 300) => (
    <PlotView
      spec={spec}
      overlay={overlay}
      height={height}
      tooltip={point}
      hoverAt={place}
      onPick={pickTraining}
      onPickAt={pickPlace}
      testId={testId}
      empty="fitting…"
      caption={caption}
    />
  );
  return (
    <section class="card model-card multiclass-card" aria-label="Softmax model" data-testid="model-softmax">
      <header class="card-header model-header">
        <h2>Softmax (Laplace), {C} classes</h2>
      </header>
      <div class="model-fields">
        <p class="hint">
          {C} latent GPs, one per class, sharing one kernel; p(class c | x) = E[softmax(f)_c] under the Laplace
          posterior of f, computed exactly (not sampled).{' '}
          {C > 2
            ? 'The binary models (logistic, probit; Laplace, EP) take two classes, so with these labels this is the model.'
            : ''}
        </p>
        <LogScaleField
          name="signal variance"
          label="Softmax signal variance"
          value={m.signalVariance}
          min={1e-2}
          max={1e3}
          disabled={busy}
          onChange={(x) => setMulticlassHyperparameter(-1, x)}
        />
        {m.lengthScales.length <= 8 ? (
          m.lengthScales.map((l, j) => (
            <LogScaleField
              name={lengthScaleName(j)}
              label={`Softmax ${lengthScaleName(j)}`}
              value={l}
              min={1e-2}
              max={1e2}
              disabled={busy}
              onChange={(x) => setMulticlassHyperparameter(j, x)}
            />
          ))
        ) : (
          <p class="hint">
            {m.lengthScales.length} length-scales (one per column): learn them with Fit hyperparameters, or tick "one
            length-scale for every column" to set one here.
          </p>
        )}
        <p class="hint model-evidence" data-testid="model-softmax-evidence">
          {s ? (
            <>
              log marginal likelihood{' '}
              <span data-value={String(s.logMarginalLikelihood)}>{s.logMarginalLikelihood.toFixed(4)}</span> ·{' '}
              {s.iterations} Newton steps · fitted and predicted in {(fit!.result.seconds * 1000).toFixed(0)} ms · class
              probabilities to ±{formatMeasure(fit!.result.errorEstimate)}
              {fit!.result.notes.length ? ` · ${fit!.result.notes.join('; ')}` : ''}
            </>
          ) : (
            'fitting…'
          )}
        </p>
        {empty.length > 0 && (
          <p class="hint" data-testid="multiclass-empty-class">
            Class {empty.join(', ')} has no example: its latent GP stays at its prior mean 0 while the others are pushed
            up where their examples are, so its probability is low wherever there are data and rises only far from them
            (towards 1/{C}).
          </p>
        )}
      </div>
      {mapsShown(d) ? (
        <>
          {view(
            maps?.predicted ?? null,
            'multiclass-predicted',
            `The predicted class in its colour, its probability as saturation: white where every class is equally likely (1/${C}), full colour where it is 1; black lines: the decision boundaries.${where}`,
            380,
          )}
          <div class="class-maps">
            {Array.from({ length: C }, (_, c) => (
              <PlotView
                spec={maps?.perClass[c] ?? null}
                overlay={overlay}
                height={240}
                tooltip={point}
                hoverAt={place}
                onPick={pickTraining}
                onPickAt={pickPlace}
                testId={`multiclass-class-${c}`}
                empty="fitting…"
                caption={`p(class ${d.classNames[c]} | x).`}
              />
            ))}
          </div>
          <div class="class-maps two">
            {view(
              maps?.entropy ?? null,
              'multiclass-entropy',
              `Predictive entropy −Σ p_c log p_c: 0 where one class is sure, log ${C} = ${formatMeasure(Math.log(C))} where all are equally likely.`,
              280,
            )}
            {view(
              maps?.variance ?? null,
              'multiclass-variance',
              'Latent variance, the mean over classes of Σ_cc(x): 0 where the data pin f down, the signal variance far from them (the prior).',
              280,
            )}
          </div>
        </>
      ) : fit?.result.test ? (
        <TestPoints d={d} p={fit.result.test} />
      ) : (
        <div class="empty-state">fitting…</div>
      )}
      <MulticlassCertifyCard />
    </section>
  );
}
