// Learning the hyperparameters: one length-scale or one per column, restarts and seed, "Fit
// hyperparameters" (both models, each maximising its own log marginal likelihood from its current
// values; progress and Cancel in the task bar), the learned values and likelihoods listed; the maps'
// resolution; and the CSV export of both models' predictions.
import { boundSummary } from '../state/bound_summary.ts';
import type { ComponentChildren } from 'preact';
import {
  data,
  family,
  fits,
  fitSettings,
  fitHyperparameters,
  fitting,
  grid,
  GRID_SIZES,
  learned,
  PRIOR_FIELDS,
  priorMessage,
  resetHyperparameters,
  updateFitSettings,
  type CurrentFit,
  type FitSettings,
} from '../state/classification_store.ts';
import {
  fitMulticlassHyperparameters,
  multiclassFit,
  multiclassLearned,
  resetMulticlass,
} from '../state/multiclass_store.ts';
import { multiclassCsv } from './export_classification.ts';
import { modelLabel } from '../worker/protocol.ts';
import { saveBlob, slug } from '../../../common/ui/download.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { classificationCsv } from './export_classification.ts';
import { SIDE_NAMES } from './ModelColumn.tsx';

/** Whether a fit ran with a prior (MAP) rather than by maximum likelihood. */
function usesPrior(s: FitSettings): boolean {
  return s.signalVariancePrior !== 'none' || s.lengthScalePrior !== 'none';
}

/** What the learned values are: maximum likelihood, or MAP under the priors given. */
function PriorSentence({ settings }: { settings: FitSettings }) {
  return (
    <p class="hint" data-testid="classification-fit-kind">
      {usesPrior(settings)
        ? `MAP: the log marginal likelihood plus the log prior (signal variance: ${settings.signalVariancePrior}; length-scales: ${settings.lengthScalePrior}) maximised.`
        : 'Maximum likelihood (no prior).'}
    </p>
  );
}

function Learned() {
  const r = learned.value,
    d = data.value;
  if (!r || !d) return null;
  // A value on the optimiser's bound is the bound, not an optimum (EP's signal variance on separated
  // classes; with one length-scale per input, dozens of pixels): one summary per model, every value kept
  // for "show all".
  const bounds = r.results.map((x) =>
    boundSummary(
      x.state.signalVariance,
      Array.from(r.settings.sharedLengthScale ? x.state.lengthScales.subarray(0, 1) : x.state.lengthScales),
    ),
  );
  const sentences = bounds.flatMap((b, k) =>
    b.sentences.map((x) => `${SIDE_NAMES[k]}: ${x.charAt(0).toLowerCase()}${x.slice(1)}`),
  );
  const all = bounds.flatMap((b, k) => b.all.map((x) => `${SIDE_NAMES[k]}: ${x}`));
  const map = usesPrior(r.settings);
  return (
    <div class="fit-summary" data-testid="classification-learned">
      <PriorSentence settings={r.settings} />
      <table class="learned-table">
        <thead>
          <tr>
            <th scope="col">model</th>
            <th scope="col" class="num">
              signal variance
            </th>
            <th scope="col" class="num">
              length-scale{r.settings.sharedLengthScale ? '' : 's'}
            </th>
            <th scope="col" class="num">
              log marginal likelihood
            </th>
            {map && (
              <th scope="col" class="num">
                log prior
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {r.results.map((x, k) => (
            <tr data-testid={`learned-${SIDE_NAMES[k]}`}>
              <th scope="row">
                {SIDE_NAMES[k]}: {modelLabel(x.state)}
              </th>
              <td class="num" data-value={String(x.state.signalVariance)}>
                {formatMeasure(x.state.signalVariance)}
              </td>
              <td
                class="num"
                data-value={Array.from(
                  r.settings.sharedLengthScale ? x.state.lengthScales.subarray(0, 1) : x.state.lengthScales,
                ).join(',')}
              >
                {Array.from(
                  r.settings.sharedLengthScale ? x.state.lengthScales.subarray(0, 1) : x.state.lengthScales,
                  formatMeasure,
                ).join(', ')}
              </td>
              <td class="num" data-value={String(x.state.logMarginalLikelihood)}>
                {x.state.logMarginalLikelihood.toFixed(4)}
                <span class="sd"> (from {x.state.optimization!.startLogMarginalLikelihood.toFixed(4)})</span>
              </td>
              {map && (
                <td class="num" data-value={String(x.state.optimization!.logPrior)}>
                  {x.state.optimization!.logPrior.toFixed(4)}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <p class="hint">
        {r.results
          .map(
            (x, k) =>
              `${SIDE_NAMES[k]}: ${x.state.optimization!.iterations} L-BFGS iterations over ${x.state.optimization!.runValues.length} run${x.state.optimization!.runValues.length > 1 ? 's' : ''}${x.state.optimization!.converged ? '' : ' (stopped at the iteration limit)'}`,
          )
          .join(' · ')}
        .
      </p>
      {sentences.length > 0 && (
        <div class="bound-note" data-testid="classification-at-bound">
          {sentences.map((x) => (
            <p>{x}</p>
          ))}
          <p>The value shown for each is the bound, not an optimum.</p>
          {all.length > sentences.length && (
            <details>
              <summary>All {all.length} values on a bound</summary>
              <ul data-testid="classification-at-bound-all">
                {all.map((x) => (
                  <li>{x}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}

/** The softmax model's learned hyperparameters. */
function LearnedSoftmax() {
  const r = multiclassLearned.value;
  if (!r) return null;
  const k = r.state.kernels[0],
    o = r.state.optimization!;
  const ls = Array.from(k.lengthScales);
  const bounds = boundSummary(k.signalVariance, ls);
  return (
    <div class="fit-summary" data-testid="classification-learned-softmax">
      <PriorSentence settings={r.settings} />
      <p class="hint">
        Learned (one kernel for every class): signal variance{' '}
        <span data-value={String(k.signalVariance)}>{formatMeasure(k.signalVariance)}</span>, length-scale
        {ls.length > 1
          ? `s ${formatMeasure(Math.min(...ls))} … ${formatMeasure(Math.max(...ls))}`
          : ` ${formatMeasure(ls[0])}`}
        ; log marginal likelihood{' '}
        <span data-value={String(r.state.logMarginalLikelihood)}>{r.state.logMarginalLikelihood.toFixed(4)}</span> (from{' '}
        {o.startLogMarginalLikelihood.toFixed(4)}), {o.iterations} L-BFGS iterations over {o.runValues.length} run
        {o.runValues.length > 1 ? 's' : ''}
        {o.converged ? '' : ' (stopped at the iteration limit)'}
        {usesPrior(r.settings) && (
          <>
            ; log prior <span data-value={String(o.logPrior)}>{o.logPrior.toFixed(4)}</span>
          </>
        )}
        .
      </p>
      {bounds.sentences.length > 0 && (
        <div class="bound-note" data-testid="softmax-at-bound">
          {bounds.sentences.map((x) => (
            <p>{x}</p>
          ))}
          <p>The value shown for each is the bound, not an optimum.</p>
          {bounds.all.length > 1 && (
            <details>
              <summary>All {bounds.all.length} values on a bound</summary>
              <ul data-testid="softmax-at-bound-all">
                {bounds.all.map((x) => (
                  <li>{x}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </div>
  );
}

/** The MAP priors: one text field each, in the CLI's spellings; the core reads and checks them when the fit
 * runs (a refusal is said here, by the field's name, and the previous fit stays). */
function PriorFields() {
  const s = fitSettings.value,
    busy = fitting.value,
    message = priorMessage.value;
  return (
    <fieldset class="prior-fields">
      <legend>Priors (MAP)</legend>
      {PRIOR_FIELDS.map((f) => (
        <label class="field">
          <span>{f.label}</span>
          <input
            type="text"
            spellcheck={false}
            value={s[f.key]}
            disabled={busy}
            aria-label={f.label}
            placeholder="none"
            onChange={(e) => updateFitSettings({ [f.key]: e.currentTarget.value.trim() || 'none' })}
          />
        </label>
      ))}
      {message && (
        <p class="error" role="alert" data-testid="classification-prior-error">
          {message}
        </p>
      )}
      <p class="hint">
        <code>none</code> (the default) learns the hyperparameters by maximum likelihood. A prior on the log of the
        parameter, <code>lognormal:MU,SIGMA</code> or <code>student-t:MU,SIGMA,NU</code>, makes the fit MAP: it
        maximises the log marginal likelihood plus the log prior, which pulls a length-scale the data say little about
        (a feature nearly constant in training) towards e<sup>MU</sup> instead of leaving it where it started. The same
        forms as <code>gpprobe gpc --optimize --signal-variance-prior --length-scale-prior</code>.
      </p>
    </fieldset>
  );
}

export function FitPanel() {
  if (family.value === 'softmax') return <SoftmaxFitPanel />;
  return <BinaryFitPanel />;
}

/** What the binary and the softmax panels share: the length-scale choice, restarts and seed, the fit and
 * reset buttons, then the panel's own text and learned values, the map resolution and the CSV export. */
function FitControls({
  onFit,
  onReset,
  resetLabel,
  showGrid,
  canExport,
  onExport,
  children,
}: {
  onFit: () => void;
  onReset: () => void;
  resetLabel: string;
  showGrid: boolean;
  canExport: boolean;
  onExport: () => void;
  children: ComponentChildren;
}) {
  const s = fitSettings.value,
    busy = fitting.value,
    d = data.value;
  const integer = (key: 'restarts' | 'seed', max?: number) => (
    <label class="field compact">
      <span>{key}</span>
      <input
        type="number"
        min={0}
        max={max}
        step={1}
        value={s[key]}
        disabled={busy}
        aria-label={key}
        onChange={(e) => {
          const x = Number(e.currentTarget.value);
          if (Number.isInteger(x) && x >= 0) updateFitSettings({ [key]: x });
        }}
      />
    </label>
  );
  return (
    <section class="panel" aria-labelledby="classification-fit-heading">
      <h3 id="classification-fit-heading">Hyperparameters</h3>
      <label class="toggle">
        <input
          type="checkbox"
          checked={s.sharedLengthScale}
          disabled={busy}
          aria-label="one length-scale for every column"
          onChange={(e) => updateFitSettings({ sharedLengthScale: e.currentTarget.checked })}
        />{' '}
        one length-scale for every column
      </label>
      <div class="row">
        {integer('restarts', 20)}
        {integer('seed')}
      </div>
      <PriorFields />
      <button type="button" class="primary wide" disabled={!d || busy} onClick={onFit}>
        Fit hyperparameters
      </button>
      <button type="button" class="link" disabled={!d || busy} onClick={onReset}>
        {resetLabel}
      </button>
      {children}
      <div class="row export-row">
        {showGrid && (
          <label class="field compact">
            <span>map resolution</span>
            <select
              aria-label="map resolution"
              value={s.gridSize}
              onChange={(e) => updateFitSettings({ gridSize: Number(e.currentTarget.value) })}
            >
              {GRID_SIZES.map((n) => (
                <option value={n}>
                  {n} × {n}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" disabled={!canExport} onClick={onExport}>
          Export predictions (CSV)
        </button>
      </div>
    </section>
  );
}

function SoftmaxFitPanel() {
  const d = data.value,
    fit = multiclassFit.value,
    g = grid.value;
  const exportCsv = () => {
    if (d && fit)
      saveBlob(new Blob([multiclassCsv(d, g, fit.result)], { type: 'text/csv' }), `${slug(d.name)}-softmax.csv`);
  };
  return (
    <FitControls
      onFit={() => void fitMulticlassHyperparameters()}
      onReset={resetMulticlass}
      resetLabel="Reset the softmax model's hyperparameters to the defaults"
      showGrid={!!d && d.x.cols <= 2}
      canExport={!!fit}
      onExport={exportCsv}
    >
      <p class="hint">
        The softmax model maximises its Laplace log marginal likelihood (Rasmussen &amp; Williams eq. 3.44, with the −Σ
        log Mᵢᵢ term) by L-BFGS, one kernel shared by the classes, as{' '}
        <code>gpprobe gpc --likelihood softmax --optimize</code>. Each Newton step costs C + 1 Cholesky factorisations
        of n × n.
      </p>
      <LearnedSoftmax />
    </FitControls>
  );
}

function BinaryFitPanel() {
  const s = fitSettings.value,
    d = data.value,
    g = grid.value;
  const current = fits.value.filter(
    (f): f is CurrentFit => f !== null && !!g && f.result.grid?.probability.length === g.points.rows,
  );
  const both = current.length === 2 ? current : null;
  const exportCsv = () => {
    if (d && g && both)
      saveBlob(new Blob([classificationCsv(d, g, both)], { type: 'text/csv' }), `${slug(d.name)}-classification.csv`);
  };
  return (
    <FitControls
      onFit={() => void fitHyperparameters()}
      onReset={resetHyperparameters}
      resetLabel="Reset both models' hyperparameters to the defaults"
      showGrid
      canExport={!!both}
      onExport={exportCsv}
    >
      <p class="hint">
        Each model maximises its own log marginal likelihood (Laplace: eq. 3.32, EP: eq. 3.65 of Rasmussen &amp;
        Williams, <cite>Gaussian Processes for Machine Learning</cite>, 2006) by L-BFGS from its current values, then
        from {s.restarts} seeded random start{s.restarts === 1 ? '' : 's'}. The kernel is signal variance × exp(−Σ (xⱼ −
        x′ⱼ)² / 2 length-scaleⱼ²): the regression lab's <code>constant.value</code> × RBF with{' '}
        <code>rbf.length_scale</code>, and <code>gpprobe gpc --signal-variance --length-scales</code>.
      </p>
      <Learned />
    </FitControls>
  );
}
