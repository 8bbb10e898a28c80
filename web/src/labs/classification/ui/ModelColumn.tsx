// One side of the comparison: a model (approximation and likelihood), its hyperparameters (signal
// variance, one length-scale or one per column; moving one refits at once), its evidence, and its two
// maps: the predictive probability p(y = 1 | x) and the latent variance, each with the 0.5 contour and
// the training points; hover for the numbers.
import { useMemo, useState } from 'preact/hooks';
import { gridCell, heldText, probabilityMap, varianceMap } from '../plots/classification_plots.ts';
import { overlayLegend, pointMark, robustnessOverlay } from '../plots/certify_plots.ts';
import {
  copyHyperparameters,
  data,
  fits,
  fitting,
  grid,
  models,
  plane,
  setHyperparameter,
  setModel,
  vocabulary,
  type Side,
} from '../state/classification_store.ts';
import { certificates, pickPoint, point as robustnessPoint } from '../state/certify_store.ts';
import { methodTitle, modelLabel } from '../worker/protocol.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { LogScaleField } from '../../../common/ui/LogScaleField.tsx';
import { CertifyCard } from './CertifyCard.tsx';

export const SIDE_NAMES = ['A', 'B'] as const;

export function ModelColumn({ side }: { side: Side }) {
  const m = models.value[side],
    fit = fits.value[side],
    v = vocabulary.value;
  const d = data.value,
    p = plane.value,
    g = grid.value,
    busy = fitting.value;
  const name = SIDE_NAMES[side];
  const [showMacKay, setShowMacKay] = useState(false);
  const current = fit && g && fit.result.grid && fit.result.grid.probability.length === g.points.rows ? fit : null;
  const mackay = showMacKay ? (current?.result.mackay?.grid ?? null) : null;
  const input = useMemo(
    () =>
      current && d && p && g
        ? {
            model: modelLabel(current.model),
            data: d,
            plane: p,
            grid: g,
            probability: mackay ?? current.result.grid!.probability,
            approximation: mackay !== null,
            latentVariance: current.result.grid!.latentVariance,
            signalVariance: current.result.state.signalVariance,
          }
        : null,
    [current, d, p, g, mackay],
  );
  const probability = useMemo(() => input && probabilityMap(input), [input]);
  const variance = useMemo(() => input && varianceMap(input), [input]);
  // x*, its box, GPFGS and the witness over both maps (certified robustness).
  const entry = certificates.value[side],
    at = robustnessPoint.value,
    oneFeature = (d?.x.cols ?? 0) === 1;
  const certificate = entry?.result?.certificate ?? entry?.root ?? null;
  const overlays = useMemo(
    () =>
      (['probability', 'variance'] as const).map((quantity) => {
        if (!p || !at) return [];
        if (certificate && entry && entry.point === at.x)
          return robustnessOverlay(certificate, p, oneFeature, quantity, at.x, !!entry.result);
        return quantity === 'probability'
          ? pointMark(p, oneFeature, at.x, null)
          : oneFeature
            ? []
            : pointMark(p, oneFeature, at.x, null);
      }),
    [p, at, certificate, entry, oneFeature],
  );
  // The overlay's legend joins the map's (on screen and in the exports); keyed by its entries, so the live
  // intervals of a running search do not redraw the maps.
  const legends = overlays.map(overlayLegend);
  const legendKey = legends.map((l) => l.map((e) => e.label).join('|')).join('/');
  const probabilityShown = useMemo(
    () => probability && { ...probability, legend: [...(probability.legend ?? []), ...legends[0]] },
    [probability, legendKey],
  );
  const varianceShown = useMemo(
    () => variance && { ...variance, legend: [...(variance.legend ?? []), ...legends[1]] },
    [variance, legendKey],
  );
  if (!v || !d) return null;

  const lengthScales = Array.from(m.kernel.lengthScales);
  const lengthScaleName = (j: number) =>
    lengthScales.length === 1 ? 'length-scale' : `length-scale of ${d.inputNames[j]}`;
  const point = (i: number): string[] => {
    const lines = [
      `point ${i + 1}: class ${d.classNames[d.labels[i] > 0 ? 1 : 0]}`,
      d.inputNames.map((n, j) => `${n} = ${formatMeasure(d.x.data[i * d.x.cols + j])}`).join(', '),
    ];
    if (current) {
      const r = current.result.data;
      lines.push(
        `p(y = 1) ${formatMeasure(r.probability[i])} · latent mean ${formatMeasure(r.latentMean[i])} · variance ${formatMeasure(r.latentVariance[i])}`,
      );
      if (current.result.mackay)
        lines.push(`MacKay's approximation of p: ${formatMeasure(current.result.mackay.data[i])}`);
    }
    return lines;
  };
  // A click on a training point certifies there; a click elsewhere at that place of the plane.
  const pickTraining = (i: number | null) => {
    if (i !== null) pickPoint(Array.from(d.x.data.subarray(i * d.x.cols, (i + 1) * d.x.cols)), i);
  };
  const pickPlace = (x: number, y: number) => {
    if (!p) return;
    pickPoint(
      p.held.map((h, j) => (j === p.x ? x : j === p.y && !oneFeature ? y : h)),
      null,
    );
  };
  const place = (x: number, y: number): string[] | null => {
    if (!current || !g || !p) return null;
    const k = gridCell(g, x, y);
    if (k === null) return null;
    const r = current.result.grid!,
      at = g.points.data.subarray(k * g.points.cols, (k + 1) * g.points.cols);
    return [
      d.x.cols === 1
        ? `${d.inputNames[p.x]} = ${formatMeasure(at[p.x])}`
        : `${d.inputNames[p.x]} = ${formatMeasure(at[p.x])}, ${d.inputNames[p.y]} = ${formatMeasure(at[p.y])}`,
      `p(y = 1) ${formatMeasure(r.probability[k])}${current.result.mackay?.grid ? ` (MacKay's approximation: ${formatMeasure(current.result.mackay.grid[k])})` : ''}`,
      `latent mean ${formatMeasure(r.latentMean[k])} · variance ${formatMeasure(r.latentVariance[k])}`,
    ];
  };
  const s = current?.result.state;
  const held = p ? heldText(d, p, d.x.cols) : '';
  const where = held
    ? ` The maps are the plane of ${d.inputNames[p!.x]} and ${d.inputNames[p!.y]} with ${held}; the points are every training point projected onto it.`
    : '';
  return (
    <section class="card model-card" aria-label={`Model ${name}`} data-testid={`model-${name}`}>
      <header class="card-header model-header">
        <h2>Model {name}</h2>
        <div class="card-actions">
          <select
            aria-label={`Model ${name} method`}
            value={m.method}
            disabled={busy}
            onChange={(e) => setModel(side, { method: e.currentTarget.value as typeof m.method })}
          >
            {v.methods.map((x) => (
              <option value={x}>{methodTitle(x)}</option>
            ))}
          </select>
          <select
            aria-label={`Model ${name} likelihood`}
            value={m.likelihood}
            disabled={busy}
            title={
              m.method === 'ep'
                ? 'EP takes the probit likelihood only (its site moments are closed-form for probit)'
                : undefined
            }
            onChange={(e) => setModel(side, { likelihood: e.currentTarget.value as typeof m.likelihood })}
          >
            {v.likelihoods.map((x) => (
              <option value={x} disabled={m.method === 'ep' && x !== 'probit'}>
                {x}
              </option>
            ))}
          </select>
        </div>
      </header>
      <div class="model-fields">
        <LogScaleField
          name="signal variance"
          label={`Model ${name} signal variance`}
          value={m.kernel.signalVariance}
          min={1e-2}
          max={1e3}
          disabled={busy}
          onChange={(x) => setHyperparameter(side, -1, x)}
        />
        {lengthScales.map((l, j) => (
          <LogScaleField
            name={lengthScaleName(j)}
            label={`Model ${name} ${lengthScaleName(j)}`}
            value={l}
            min={1e-2}
            max={1e2}
            disabled={busy}
            onChange={(x) => setHyperparameter(side, j, x)}
          />
        ))}
        <p class="hint model-evidence" data-testid={`model-${name}-evidence`}>
          {s ? (
            <>
              log marginal likelihood{' '}
              <span data-value={String(s.logMarginalLikelihood)}>{s.logMarginalLikelihood.toFixed(4)}</span> ·{' '}
              {s.iterations} {s.method === 'ep' ? 'EP sweeps' : 'Newton steps'} · fitted and mapped in{' '}
              {(current!.result.seconds * 1000).toFixed(0)} ms
              {current!.result.notes.length ? ` · ${current!.result.notes.join('; ')}` : ''}
            </>
          ) : (
            'fitting…'
          )}{' '}
          <button type="button" class="link" onClick={() => copyHyperparameters(side)} disabled={busy}>
            copy to model {SIDE_NAMES[1 - side]}
          </button>
        </p>
        {m.likelihood === 'logistic' && (
          <label
            class="toggle"
            title="σ(μ/√(1 + πΣ/8)) (Toussaint's lecture): an approximation of the exact E[σ(f)], off by up to 0.016"
          >
            <input
              type="checkbox"
              checked={showMacKay}
              aria-label={`Model ${name}: show MacKay's approximation`}
              onChange={(e) => setShowMacKay(e.currentTarget.checked)}
            />{' '}
            map MacKay's approximation σ(μ/√(1 + πΣ/8)) instead
          </label>
        )}
      </div>
      <PlotView
        spec={probabilityShown}
        overlay={overlays[0]}
        height={340}
        tooltip={point}
        hoverAt={place}
        onPick={pickTraining}
        onPickAt={pickPlace}
        testId={`model-${name}-probability`}
        empty="fitting…"
        caption={`Predictive probability of class ${d.classNames[1]}, ${mackay ? "by MacKay's approximation σ(μ/√(1 + πΣ/8)) (off by up to 0.016 from the exact E[σ(f)])" : `exactly ${m.likelihood === 'probit' ? 'Φ(μ/√(1 + Σ))' : 'E[σ(f)] by quadrature'}`}; ${d.x.cols === 1 ? 'dashed: p = 0.5; the points sit at their class (0 or 1)' : 'black: where it is 0.5'}.${where}`}
      />
      <PlotView
        spec={varianceShown}
        overlay={overlays[1]}
        height={340}
        tooltip={point}
        hoverAt={place}
        onPick={pickTraining}
        onPickAt={pickPlace}
        testId={`model-${name}-variance`}
        empty="fitting…"
        caption="Latent variance Σ(x): the epistemic uncertainty, from 0 (the data pin f down) to the signal variance (the prior, far from the data)."
      />
      <CertifyCard side={side} name={name} />
    </section>
  );
}
