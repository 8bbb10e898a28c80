// The Classification tab's robustness controls: the point x* (click a map, or type it), gamma, the
// moving coordinates, branch and bound's tolerance and limits; Certify (both models at x*) and Cancel;
// the gamma sweep (the paper's Fig. 2) and what it refines; the certificates' CSV.
import { data } from '../state/classification_store.ts';
import {
  cancelRobustness, certificates, certify, point, robustnessSettings, running, sweep, updateRobustnessSettings,
} from '../state/certify_store.ts';
import { saveBlob, slug } from '../../../common/ui/download.ts';
import { MinNumberField } from '../../../common/ui/MinNumberField.tsx';
import { certificatesCsv } from './export_certify.ts';

/** "0, 0.1, 0.2" → numbers; null when a value is not a number >= 0. */
function parseGammas(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  const values = parts.map(Number);
  return values.every((v) => Number.isFinite(v) && v >= 0) ? values : null;
}

export function CertifyPanel() {
  const d = data.value, s = robustnessSettings.value, p = point.value, busy = running.value;
  if (!d) return null;
  const moving = (j: number) => s.dims.length === 0 || s.dims.includes(j);
  const toggle = (j: number, on: boolean) => {
    const next = d.inputNames.map((_, k) => k).filter((k) => (k === j ? on : moving(k)));
    if (next.length > 0) updateRobustnessSettings({ dims: next.length === d.x.cols ? [] : next });
  };
  const setCoordinate = (j: number, v: number) => {
    const x = p ? [...p.x] : Array.from({ length: d.x.cols }, () => 0);
    x[j] = v;
    point.value = { x, index: null };
  };
  const done = certificates.value.filter((c) => c?.result);
  return (
    <section class="panel" aria-labelledby="robustness-heading">
      <h3 id="robustness-heading">Certified robustness</h3>
      <p class="hint">Click a point on either model's map (a training point, or any place) to certify both models there: over the
        box x* ± γ on the moving coordinates, the smallest and largest p(y = 1), with guarantees (Blaas et al. 2020).</p>
      <div class="row robustness-point" data-testid="robustness-point">
        {d.inputNames.map((name, j) => (
          <label class="field compact">
            <span>x* {name}</span>
            <input type="number" step="any" value={p ? p.x[j] : ''} aria-label={`x* ${name}`}
              onChange={(e) => { const v = Number(e.currentTarget.value); if (e.currentTarget.value !== '' && Number.isFinite(v)) setCoordinate(j, v); }} />
          </label>
        ))}
      </div>
      {p?.index != null && <p class="hint">x* is training point {p.index + 1}.</p>}
      <div class="row">
        <MinNumberField label="gamma" value={s.gamma} min={0} onChange={(gamma) => updateRobustnessSettings({ gamma })} />
        <MinNumberField label="tolerance" value={s.tolerance} min={0} onChange={(tolerance) => updateRobustnessSettings({ tolerance })} />
      </div>
      <fieldset class="field inputs">
        <legend>moving coordinates (the others stay at x*)</legend>
        {d.inputNames.map((name, j) => (
          <label class="toggle">
            <input type="checkbox" checked={moving(j)} aria-label={`${name} moves`} onChange={(e) => toggle(j, e.currentTarget.checked)} /> {name}
          </label>
        ))}
      </fieldset>
      <div class="row">
        <MinNumberField label="max iterations" value={s.maxIterations} min={0} step="1" onChange={(v) => updateRobustnessSettings({ maxIterations: Math.round(v) })} />
        <MinNumberField label="time limit (s)" value={s.timeLimitSeconds} min={0} onChange={(timeLimitSeconds) => updateRobustnessSettings({ timeLimitSeconds })} />
      </div>
      <div class="row robustness-actions">
        <button type="button" class="primary" disabled={!p} onClick={() => void certify()}>Certify</button>
        {busy && <button type="button" onClick={cancelRobustness}>Cancel</button>}
        <button type="button" disabled={done.length === 0}
          onClick={() => saveBlob(new Blob([certificatesCsv(d, certificates.value)], { type: 'text/csv' }), `${slug(d.name)}-robustness.csv`)}>
          Export certificates (CSV)</button>
      </div>
      <p class="hint">Branch and bound splits the box until the certified bound is within the tolerance of a value it found
        (or a limit stops it: the interval reached is still valid). Its cost grows fast with the number of moving coordinates.</p>
      <label class="field">
        <span>γ sweep (the paper's Fig. 2)</span>
        <input type="text" aria-label="sweep gammas" value={s.gammas.join(', ')}
          onChange={(e) => { const g = parseGammas(e.currentTarget.value); if (g) updateRobustnessSettings({ gammas: g }); }} />
      </label>
      <div class="row">
        <label class="field">
          <span>refine</span>
          <select aria-label="sweep refines" value={s.search} onChange={(e) => updateRobustnessSettings({ search: e.currentTarget.value === 'adversarial' ? 'adversarial' : 'both' })}>
            <option value="both">both extremes</option>
            <option value="adversarial">the adversarial extreme only</option>
          </select>
        </label>
        <button type="button" disabled={!p} onClick={() => void sweep()}>Run sweep</button>
      </div>
    </section>
  );
}
