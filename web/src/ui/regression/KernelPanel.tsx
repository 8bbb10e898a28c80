// The kernel and its hyperparameters: choose a kernel, set values by hand (the fit follows, debounced,
// in the worker) or press "Fit hyperparameters" to maximise the log marginal likelihood; the learned
// values replace the ones in the fields and are listed with the likelihood.
import type { KernelName } from '../../engine/regression.ts';
import { fieldsOf, KERNELS, type KernelField } from '../../state/kernel_fields.ts';
import { currentFit, fitHyperparameters, fitting, series, settings, updateSettings } from '../../state/regression_store.ts';
import { formatMeasure } from '../format.ts';
import { ParameterField } from './ParameterField.tsx';

const isKernel = (name: string): name is KernelName => KERNELS.some((k) => k.name === name);

/** Slider ranges: wide enough for data on any scale; the number fields take any positive value. */
function range(field: KernelField): [number, number] {
  return field.key === 'noiseVariance' ? [1e-5, 1e2] : [1e-3, 1e3];
}

function FitSummary() {
  const current = currentFit.value;
  if (!current) return null;
  const fit = current.result, s = fit.state;
  const labels = new Map(fieldsOf(current.settings.kernel).map((f) => [f.parameter, f.label]));
  return (
    <div class="fit-summary" data-testid="fit-summary">
      <dl>
        {s.names.map((name, i) => <><dt>{labels.get(name) ?? name}</dt><dd>{formatMeasure(s.values[i])}</dd></>)}
        <dt>noise variance</dt><dd>{formatMeasure(s.noiseVariance)} (sd {formatMeasure(Math.sqrt(s.noiseVariance))})</dd>
        <dt>constant mean</dt><dd>{formatMeasure(s.mean)}</dd>
        <dt>log marginal likelihood</dt><dd data-testid="log-marginal-likelihood">{s.logMarginalLikelihood.toFixed(4)}</dd>
      </dl>
      <p class="hint">
        {s.iterations > 0
          ? `Learned in ${s.iterations} L-BFGS iterations over ${s.runValues.length} run${s.runValues.length > 1 ? 's' : ''} (best log likelihood per run: ${Array.from(s.runValues, (v) => v.toFixed(2)).join(', ')}).`
          : 'Set by hand.'}
        {' '}Kernel: <code>{s.kernel}</code>. {fit.notes.join(' ')}
      </p>
    </div>
  );
}

export function KernelPanel() {
  const s = settings.value;
  const busy = fitting.value;
  const toggleHold = (parameter: string, on: boolean) =>
    updateSettings({ hold: on ? [...s.hold, parameter] : s.hold.filter((p) => p !== parameter) });
  return (
    <section class="panel" aria-labelledby="regression-kernel-heading">
      <h3 id="regression-kernel-heading">Kernel and hyperparameters</h3>
      <label class="field">
        <span>Kernel (variance × base kernel)</span>
        <select aria-label="Kernel" value={s.kernel} disabled={busy}
          onChange={(e) => { const k = e.currentTarget.value; if (isKernel(k)) updateSettings({ kernel: k }); }}>
          {KERNELS.map((k) => <option value={k.name}>{k.label}</option>)}
        </select>
      </label>
      {fieldsOf(s.kernel).map((f) => {
        const [min, max] = range(f);
        return (
          <ParameterField label={f.label} value={s[f.key]} min={min} max={max} held={s.hold.includes(f.parameter)} disabled={busy}
            onChange={(v) => updateSettings({ [f.key]: v })} onHold={(on) => toggleHold(f.parameter, on)} />
        );
      })}
      <div class="row">
        <label class="field compact">
          <span>restarts</span>
          <input type="number" min={0} max={20} step={1} value={s.restarts} disabled={busy} aria-label="restarts"
            onChange={(e) => { const v = Number(e.currentTarget.value); if (Number.isInteger(v) && v >= 0) updateSettings({ restarts: v }); }} />
        </label>
        <label class="field compact">
          <span>seed</span>
          <input type="number" min={0} step={1} value={s.seed} disabled={busy} aria-label="seed"
            onChange={(e) => { const v = Number(e.currentTarget.value); if (Number.isInteger(v) && v >= 0) updateSettings({ seed: v }); }} />
        </label>
      </div>
      <button type="button" class="primary wide" disabled={!series.value || busy} onClick={() => void fitHyperparameters()}>
        Fit hyperparameters
      </button>
      <p class="hint">Maximises the log marginal likelihood (L-BFGS from these values, then from {s.restarts} seeded random
        start{s.restarts === 1 ? '' : 's'}). Moving a slider refits with that value at once.</p>
      <FitSummary />
    </section>
  );
}
