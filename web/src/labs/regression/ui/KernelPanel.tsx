// The kernel and its hyperparameters: choose a kernel, set values by hand (the fit follows, throttled,
// in the worker) or press "Fit hyperparameters" to maximise the log marginal likelihood; the learned
// values replace the ones in the fields and are listed with the likelihood. The kernels, their
// parameters and every field's name come from the core (the lab's vocabulary): a field is labelled
// with the name its value reaches the core under.
import { fieldsOf, valueOf } from '../state/kernel_fields.ts';
import {
  currentFit,
  fitHyperparameters,
  fitIsCurrent,
  fitting,
  resetHyperparameters,
  series,
  setValue,
  settings,
  updateSettings,
  vocabulary,
} from '../state/regression_store.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { LogScaleField } from '../../../common/ui/LogScaleField.tsx';
import { boundNotes } from '../../../common/state/fit_bounds.ts';

/** Slider ranges: wide enough for data on any scale; the number fields take any positive value. */
function range(name: string, noise: string): [number, number] {
  return name === noise ? [1e-5, 1e2] : [1e-3, 1e3];
}

function FitSummary() {
  const current = currentFit.value,
    v = vocabulary.value;
  if (!current || !v) return null;
  const fit = current.result,
    s = fit.state;
  // Learned values on the optimiser's bound (held ones are where the user put them).
  const held = new Set(current.settings.hold);
  const atBounds =
    s.iterations > 0
      ? boundNotes(
          [...Object.entries(s.kernel.parameters), [v.noiseParameter, s.noiseVariance] as [string, number]].filter(
            ([name]) => !held.has(name),
          ),
        )
      : [];
  return (
    <div class={`fit-summary${fitIsCurrent.value ? '' : ' stale'}`} data-testid="fit-summary">
      {!fitIsCurrent.value && (
        <p class="hint stale-note">The fields have changed since this fit: refitting with their values…</p>
      )}
      <dl>
        {Object.entries(s.kernel.parameters).map(([name, value]) => (
          <>
            <dt>{name}</dt>
            <dd data-value={String(value)}>{formatMeasure(value)}</dd>
          </>
        ))}
        <dt>{v.noiseParameter}</dt>
        <dd data-value={String(s.noiseVariance)}>
          {formatMeasure(s.noiseVariance)} (sd {formatMeasure(Math.sqrt(s.noiseVariance))})
        </dd>
        <dt>constant mean</dt>
        <dd>{formatMeasure(s.mean)}</dd>
        <dt>log marginal likelihood</dt>
        <dd data-testid="log-marginal-likelihood">{s.logMarginalLikelihood.toFixed(4)}</dd>
      </dl>
      <p class="hint">
        {s.iterations > 0
          ? `Learned in ${s.iterations} L-BFGS iterations over ${s.runValues.length} run${s.runValues.length > 1 ? 's' : ''} (best log likelihood per run: ${Array.from(s.runValues, (x) => x.toFixed(2)).join(', ')}).`
          : 'Set by hand.'}{' '}
        Kernel: <code>{s.description}</code>. {fit.notes.join(' ')}
      </p>
      {atBounds.length > 0 && (
        <p class="bound-note" data-testid="regression-at-bound">
          {atBounds.join('; ')}: the log marginal likelihood still rises beyond it, so the value is the bound, not an
          optimum.
        </p>
      )}
    </div>
  );
}

export function KernelPanel() {
  const s = settings.value,
    v = vocabulary.value;
  const busy = fitting.value;
  const toggleHold = (parameter: string, on: boolean) =>
    updateSettings({ hold: on ? [...s.hold, parameter] : s.hold.filter((p) => p !== parameter) });
  return (
    <section class="panel" aria-labelledby="regression-kernel-heading">
      <h3 id="regression-kernel-heading">Kernel and hyperparameters</h3>
      {!v ? (
        <p class="hint">loading the kernels…</p>
      ) : (
        <>
          <label class="field">
            <span>Kernel (constant.value × base kernel)</span>
            <select
              aria-label="Kernel"
              value={s.kernel}
              disabled={busy}
              onChange={(e) => updateSettings({ kernel: e.currentTarget.value })}
            >
              {v.kernels.map((k) => (
                <option value={k.name}>{k.title}</option>
              ))}
            </select>
          </label>
          {fieldsOf(v, s.kernel).map((name) => {
            const [min, max] = range(name, v.noiseParameter);
            return (
              <LogScaleField
                name={name}
                value={valueOf(v, s, name)}
                min={min}
                max={max}
                held={s.hold.includes(name)}
                disabled={busy}
                onChange={(value) => setValue(name, value)}
                onHold={(on) => toggleHold(name, on)}
              />
            );
          })}
        </>
      )}
      <div class="row">
        <label class="field compact">
          <span>restarts</span>
          <input
            type="number"
            min={0}
            max={20}
            step={1}
            value={s.restarts}
            disabled={busy}
            aria-label="restarts"
            onChange={(e) => {
              const x = Number(e.currentTarget.value);
              if (Number.isInteger(x) && x >= 0) updateSettings({ restarts: x });
            }}
          />
        </label>
        <label class="field compact">
          <span>seed</span>
          <input
            type="number"
            min={0}
            step={1}
            value={s.seed}
            disabled={busy}
            aria-label="seed"
            onChange={(e) => {
              const x = Number(e.currentTarget.value);
              if (Number.isInteger(x) && x >= 0) updateSettings({ seed: x });
            }}
          />
        </label>
      </div>
      <button
        type="button"
        class="primary wide"
        disabled={!series.value || !v || busy}
        onClick={() => void fitHyperparameters()}
      >
        Fit hyperparameters
      </button>
      <button type="button" class="link" disabled={!series.value || busy} onClick={resetHyperparameters}>
        Reset to the data's starting values
      </button>
      <p class="hint">
        Maximises the log marginal likelihood (L-BFGS from these values, then from {s.restarts} seeded random start
        {s.restarts === 1 ? '' : 's'}). Moving a slider refits with that value at once. Each field is named as the core
        and the command line (<code>gpprobe gpr --rbf-length-scale …</code>) name it.
      </p>
      <FitSummary />
    </section>
  );
}
