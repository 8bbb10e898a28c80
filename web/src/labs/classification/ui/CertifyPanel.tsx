// The Classification tab's robustness controls: the point x* (click a map, or type it), gamma, the
// moving coordinates, branch and bound's tolerance and limits; Certify (both models at x*) and Cancel;
// the gamma sweep (the paper's Fig. 2) and what it refines; the certificates' CSV.
import { useState } from 'preact/hooks';
import { data, family } from '../state/classification_store.ts';
import {
  cancelMulticlassCertify,
  certifyMulticlass,
  multiclassCertification,
  multiclassCertifying,
} from '../state/multiclass_store.ts';
import { multiclassCertificateCsv } from './export_certify.ts';
import {
  cancelRobustness,
  certificates,
  certify,
  point,
  ROBUSTNESS_FORM,
  robustnessProblems,
  robustnessSettings,
  running,
  sweep,
  updateRobustnessSettings,
} from '../state/certify_store.ts';
import { parseMinNumber, parseNumberList, setFieldProblem } from '../../../common/state/field_problems.ts';
import { saveBlob, slug } from '../../../common/ui/download.ts';
import { MinNumberField } from '../../../common/ui/MinNumberField.tsx';
import { certificatesCsv } from './export_certify.ts';

export function CertifyPanel() {
  const d = data.value,
    s = robustnessSettings.value,
    p = point.value,
    softmax = family.value === 'softmax';
  const busy = softmax ? multiclassCertifying.value : running.value,
    mc = multiclassCertification.value;
  /** Many columns (the digits' 64 pixels): x* comes from a click, and the moving ones are listed compactly. */
  const many = (d?.x.cols ?? 0) > 8;
  // Typed text a field refused, kept on screen (its problem is in the form's list below).
  const [refused, setRefused] = useState<Record<string, string>>({});
  if (!d) return null;
  const moving = (j: number) => s.dims.includes(j);
  const toggle = (j: number, on: boolean) => {
    updateRobustnessSettings({ dims: d.inputNames.map((_, k) => k).filter((k) => (k === j ? on : moving(k))) });
  };
  const refuse = (field: string, text: string | null, problem: string | null) => {
    setFieldProblem(ROBUSTNESS_FORM, field, problem);
    const next = { ...refused };
    if (text === null) delete next[field];
    else next[field] = text;
    setRefused(next);
  };
  const setCoordinate = (j: number, text: string) => {
    const field = `x* ${d.inputNames[j]}`,
      parsed = parseMinNumber(text, -Infinity, field);
    if ('problem' in parsed) return refuse(field, text, parsed.problem);
    refuse(field, null, null);
    const x = p ? [...p.x] : Array.from({ length: d.x.cols }, () => 0);
    x[j] = parsed.value;
    point.value = { x, index: null };
  };
  const setGammas = (text: string) => {
    const parsed = parseNumberList(text, 0, 'sweep gammas');
    if ('problem' in parsed) return refuse('sweep gammas', text, parsed.problem);
    refuse('sweep gammas', null, null);
    updateRobustnessSettings({ gammas: parsed.value });
  };
  const problems = [...new Set([...robustnessProblems('certify', s), ...robustnessProblems('sweep', s)])];
  const done = certificates.value.filter((c) => c?.result);
  return (
    <section class="panel" aria-labelledby="robustness-heading">
      <h3 id="robustness-heading">Certified robustness</h3>
      {softmax ? (
        <p class="hint">
          Click {many ? 'a held-out point' : 'a point or a place on a map'} to certify the softmax model there: over the
          box x* ± γ on the moving coordinates, every class's smallest and largest probability, and whether the
          predicted class stays predicted (its margin over every other class), with guarantees (Blaas et al. 2020, §5).
        </p>
      ) : (
        <p class="hint">
          Click a point on either model's map (a training point, or any place) to certify both models there: over the
          box x* ± γ on the moving coordinates, the smallest and largest p(y = 1), with guarantees (Blaas et al. 2020).
        </p>
      )}
      {many ? (
        <p class="hint" data-testid="robustness-point">
          {p
            ? `x* is ${p.index != null ? `training point ${p.index + 1}` : 'the point clicked'} (${d.x.cols} values).`
            : 'No x* yet.'}
        </p>
      ) : (
        <div class="row robustness-point" data-testid="robustness-point">
          {d.inputNames.map((name, j) => (
            <label class="field compact">
              <span>x* {name}</span>
              <input
                type="number"
                step="any"
                value={refused[`x* ${name}`] ?? (p ? p.x[j] : '')}
                aria-label={`x* ${name}`}
                aria-invalid={`x* ${name}` in refused}
                onChange={(e) =>
                  setCoordinate(j, e.currentTarget.validity.badInput ? 'not a number' : e.currentTarget.value)
                }
              />
            </label>
          ))}
        </div>
      )}
      {!many && p?.index != null && <p class="hint">x* is training point {p.index + 1}.</p>}
      <div class="row">
        <MinNumberField
          label="gamma"
          form={ROBUSTNESS_FORM}
          value={s.gamma}
          min={0}
          onChange={(gamma) => updateRobustnessSettings({ gamma })}
        />
        <MinNumberField
          label="tolerance"
          form={ROBUSTNESS_FORM}
          value={s.tolerance}
          min={0}
          onChange={(tolerance) => updateRobustnessSettings({ tolerance })}
        />
      </div>
      <fieldset class={`field inputs${many ? ' many' : ''}`}>
        <legend>moving coordinates (the others stay at x*)</legend>
        {d.inputNames.map((name, j) => (
          <label class="toggle">
            <input
              type="checkbox"
              checked={moving(j)}
              aria-label={`${name} moves`}
              onChange={(e) => toggle(j, e.currentTarget.checked)}
            />{' '}
            {name}
          </label>
        ))}
      </fieldset>
      <div class="row">
        <MinNumberField
          label="max iterations"
          form={ROBUSTNESS_FORM}
          value={s.maxIterations}
          min={0}
          step="1"
          onChange={(v) => updateRobustnessSettings({ maxIterations: Math.round(v) })}
        />
        <MinNumberField
          label="time limit (s)"
          form={ROBUSTNESS_FORM}
          value={s.timeLimitSeconds}
          min={0}
          onChange={(timeLimitSeconds) => updateRobustnessSettings({ timeLimitSeconds })}
        />
      </div>
      {problems.length > 0 && (
        <ul class="field-error" data-testid="robustness-problems">
          {problems.map((x) => (
            <li>{x}</li>
          ))}
        </ul>
      )}
      <div class="row robustness-actions">
        <button
          type="button"
          class="primary"
          disabled={!p}
          onClick={() => void (softmax ? certifyMulticlass() : certify())}
        >
          Certify
        </button>
        {busy && (
          <button type="button" onClick={softmax ? cancelMulticlassCertify : cancelRobustness}>
            Cancel
          </button>
        )}
        {softmax ? (
          <button
            type="button"
            disabled={!mc || !mc.classes.some((c) => c.root)}
            onClick={() =>
              saveBlob(
                new Blob([multiclassCertificateCsv(d, mc!)], { type: 'text/csv' }),
                `${slug(d.name)}-softmax-robustness.csv`,
              )
            }
          >
            Export certificates (CSV)
          </button>
        ) : (
          <button
            type="button"
            disabled={done.length === 0}
            onClick={() =>
              saveBlob(
                new Blob([certificatesCsv(d, certificates.value)], { type: 'text/csv' }),
                `${slug(d.name)}-robustness.csv`,
              )
            }
          >
            Export certificates (CSV)
          </button>
        )}
      </div>
      <p class="hint">
        Branch and bound splits the box until the certified bound is within the tolerance of a value it found (or a
        limit stops it: the interval reached is still valid). Its cost grows fast with the number of moving coordinates.
      </p>
      {!softmax && (
        <>
          <label class="field">
            <span>γ sweep (the paper's Fig. 2)</span>
            <input
              type="text"
              aria-label="sweep gammas"
              value={refused['sweep gammas'] ?? s.gammas.join(', ')}
              aria-invalid={'sweep gammas' in refused}
              onChange={(e) => setGammas(e.currentTarget.value)}
            />
          </label>
          <div class="row">
            <label class="field">
              <span>refine</span>
              <select
                aria-label="sweep refines"
                value={s.search}
                onChange={(e) =>
                  updateRobustnessSettings({ search: e.currentTarget.value === 'adversarial' ? 'adversarial' : 'both' })
                }
              >
                <option value="both">both extremes</option>
                <option value="adversarial">the adversarial extreme only</option>
              </select>
            </label>
            <button type="button" disabled={!p} onClick={() => void sweep()}>
              Run sweep
            </button>
          </div>
        </>
      )}
    </section>
  );
}
