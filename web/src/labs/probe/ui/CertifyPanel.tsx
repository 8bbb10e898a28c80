// "Certify within γ" for the selected query of the Probe tab: the set (L∞ box or L2 ball of radius γ,
// on every coordinate or a few chosen ones, which also runs branch and bound), the certified ranges of
// the probe's outputs over it, whether the verdict can flip, the witnesses, and how far to trust the
// ranges (the tightness the README measured on the digits).
import { useState } from 'preact/hooks';
import {
  cancelQueryCertificate,
  certifyingRow,
  certifyRow,
  dataScale,
  defaultGamma,
  gammaSetByUser,
  PROBE_CERTIFY_FORM,
  probeCertifySettings,
  queryCertificate,
  resetGamma,
  setGammaByUser,
  updateProbeCertifySettings,
} from '../state/certify_store.ts';
import { problemsIn } from '../../../common/state/field_problems.ts';
import { dataset, probeBasis, selected } from '../../../common/state/session_store.ts';
import type { Interval } from '../../../engine/certify/classification_certify.ts';
import type { ProbeCertificate } from '../../../engine/certify/probe_certify.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { MinNumberField } from '../../../common/ui/MinNumberField.tsx';
import '../../../common/ui/certify.css';

/** "3, 17, 40" → [3, 17, 40]; an error text for anything else. */
function parseDims(text: string): number[] | string {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  const values = parts.map(Number);
  const bad = parts.find((p, k) => !Number.isInteger(values[k]) || values[k] < 0);
  return bad === undefined ? values : `'${bad}' is not a coordinate (0, 1, 2, …)`;
}

const range = (i: Interval, testId: string) => (
  <td class="num" data-testid={testId} data-value={`${i.lower},${i.upper}`}>
    [{formatMeasure(i.lower)}, {formatMeasure(i.upper)}]
  </td>
);

/** The coordinates a witness changes, with their offsets from a*. */
function offsets(witness: Float64Array, query: Float32Array | Float64Array): string {
  const moved = Array.from(witness, (v, j) => ({ j, offset: v - query[j] })).filter((m) => m.offset !== 0);
  if (moved.length === 0) return 'a* itself';
  const shown = moved
    .slice(0, 6)
    .map((m) => `${m.j} (${m.offset > 0 ? '+' : '−'}${formatMeasure(Math.abs(m.offset))})`);
  return `coordinate${moved.length > 1 ? 's' : ''} ${shown.join(', ')}${moved.length > 6 ? `, +${moved.length - 6} more` : ''}`;
}

function verdict(c: ProbeCertificate): string {
  const positive = c.judgedProbability >= 0.5,
    b = c.judgedProbabilityBounds;
  const says = positive ? 'shows the concept' : 'does not show it';
  if (c.verdictCanFlip === 'yes') {
    return `The verdict can flip: a query of the set has judged probability ${formatMeasure(positive ? c.lowestFound : c.highestFound)}, on the other side of ½ (a* ${says}).`;
  }
  if (c.verdictCanFlip === 'no') {
    return `Certified: every query of the set keeps the verdict (${says}): its judged probability stays ${positive ? `≥ ${formatMeasure(b.lower)} > ½` : `≤ ${formatMeasure(b.upper)} < ½`}.`;
  }
  return (
    `Not decided: the certified range [${formatMeasure(b.lower)}, ${formatMeasure(b.upper)}] contains ½ but no query found crosses it; ` +
    'a smaller γ, or branch and bound on fewer coordinates, can decide it.'
  );
}

export function CertifyPanel() {
  const row = selected.value,
    d = dataset.value,
    s = probeCertifySettings.value;
  const [dimsText, setDimsText] = useState(s.dims.join(', '));
  const parsed = parseDims(dimsText);
  const problems = problemsIn(PROBE_CERTIFY_FORM);
  if (row === null || !d) return null;
  const result = queryCertificate.value?.row === row ? queryCertificate.value : null;
  const c = result?.certificate,
    busy = certifyingRow.value === row;
  const search = result ? result.settings.dims.length > 0 : false;
  const setName = (r: { settings: typeof s }) =>
    `${r.settings.norm === 'inf' ? 'L∞ box' : 'L2 ball'} of radius ${formatMeasure(r.settings.gamma)} around row ${row}, ` +
    (r.settings.dims.length
      ? `moving coordinate${r.settings.dims.length > 1 ? 's' : ''} ${r.settings.dims.join(', ')} (the others fixed)`
      : `all ${d.cols} coordinates moving`);
  return (
    <div class="certify-panel" data-testid="certify-panel">
      <h3>Certify within γ</h3>
      <div class="row">
        <MinNumberField
          label="γ"
          ariaLabel="certify gamma"
          form={PROBE_CERTIFY_FORM}
          value={s.gamma}
          min={0}
          onChange={(gamma) => setGammaByUser(gamma)}
        />
        <label class="field compact">
          <span>set</span>
          <select
            aria-label="certify norm"
            value={s.norm}
            onChange={(e) => updateProbeCertifySettings({ norm: e.currentTarget.value === '2' ? '2' : 'inf' })}
          >
            <option value="inf">L∞ box</option>
            <option value="2">L2 ball</option>
          </select>
        </label>
        <label class="field certify-dims">
          <span>moving coordinates (empty: all)</span>
          <input
            type="text"
            value={dimsText}
            placeholder="all, or e.g. 3, 17, 40"
            aria-label="certify moving coordinates"
            onInput={(e) => {
              setDimsText(e.currentTarget.value);
              const next = parseDims(e.currentTarget.value);
              if (typeof next !== 'string') updateProbeCertifySettings({ dims: next });
            }}
          />
        </label>
      </div>
      <GammaScale />
      {typeof parsed === 'string' && <p class="field-error">{parsed}</p>}
      {problems.length > 0 && (
        <ul class="field-error" data-testid="certify-problems">
          {problems.map((x) => (
            <li>{x}</li>
          ))}
        </ul>
      )}
      {s.dims.length > 0 && (
        <div class="row">
          <MinNumberField
            label="tolerance"
            ariaLabel="certify tolerance"
            form={PROBE_CERTIFY_FORM}
            value={s.tolerance}
            min={0}
            onChange={(tolerance) => updateProbeCertifySettings({ tolerance })}
          />
          <MinNumberField
            label="time limit (s)"
            ariaLabel="certify time limit"
            form={PROBE_CERTIFY_FORM}
            value={s.timeLimitSeconds}
            min={0}
            onChange={(timeLimitSeconds) => updateProbeCertifySettings({ timeLimitSeconds })}
          />
        </div>
      )}
      <div class="row">
        <button
          type="button"
          class="small"
          disabled={busy || typeof parsed === 'string'}
          onClick={() => void certifyRow(row)}
        >
          Certify row {row}
        </button>
        {busy && (
          <button type="button" class="small" onClick={cancelQueryCertificate}>
            Cancel
          </button>
        )}
      </div>
      {result && c && (
        <div class="certify-result" data-testid="certify-result">
          <p class="hint">
            Over every query of the {setName(result)}
            {result.basis !== probeBasis.value ? ' (the probe has changed since: certify again)' : ''}:
          </p>
          {(problems.length > 0 ||
            result.settings.gamma !== s.gamma ||
            result.settings.norm !== s.norm ||
            result.settings.dims.join(',') !== s.dims.join(',')) && (
            <p class="field-error" data-testid="certify-mismatch">
              This certificate is for γ = {result.settings.gamma}, not the fields as they are
              {problems.length > 0 ? ' (a field holds a value that was refused)' : ''}: certify again.
            </p>
          )}
          <table class="certify-table">
            <tbody>
              <tr>
                <th scope="row">judged probability</th>
                {range(c.judgedProbabilityBounds, 'certify-judged')}
                <td class="num" data-testid="certify-judged-at" data-value={String(c.judgedProbability)}>
                  {formatMeasure(c.judgedProbability)} at a*
                </td>
              </tr>
              {search && (
                <tr>
                  <th scope="row">found in the set</th>
                  <td class="num" data-testid="certify-found" data-value={`${c.lowestFound},${c.highestFound}`}>
                    [{formatMeasure(c.lowestFound)}, {formatMeasure(c.highestFound)}]
                  </td>
                  <td />
                </tr>
              )}
              <tr>
                <th scope="row">latent mean</th>
                {range(c.latentMean, 'certify-mean')}
                <td />
              </tr>
              <tr>
                <th scope="row">latent variance</th>
                {range(c.latentVariance, 'certify-variance')}
                <td />
              </tr>
              <tr>
                <th scope="row">episteme</th>
                {range(c.episteme, 'certify-episteme')}
                <td />
              </tr>
            </tbody>
          </table>
          <p class={`verdict verdict-${c.verdictCanFlip}`} data-testid="certify-verdict" data-value={c.verdictCanFlip}>
            {verdict(c)}
          </p>
          <p class="hint" data-testid="certify-status">
            {c.status === 'bounds_only'
              ? 'Bounds over the whole set in one pass (no branch and bound: choose a few moving coordinates for it).'
              : `Branch and bound: ${c.status.replace('_', ' ')} after ${c.iterations} splits.`}
            {search &&
              c.lowestWitness.length > 0 &&
              ` Lowest found by changing ${offsets(c.lowestWitness, result.query)}; highest by changing ${offsets(c.highestWitness, result.query)}.`}{' '}
            {(result.seconds * 1000).toFixed(0)} ms.
          </p>
          <p class="hint">
            How tight (measured on the digits, README): in one pass the judged probability's range is 8–53 % wider than
            what 10,000 sampled queries reach; the latent variance's is looser (2.4–11× the sampled range), and the
            episteme's, which follows it, is loose too. Branch and bound on a few coordinates closes the judged
            probability to the tolerance. In many dimensions an L∞ box is far larger than an L2 ball of the same γ
            (radius γ√d): prefer the ball for embeddings.
          </p>
        </div>
      )}
    </div>
  );
}

/** Where γ's default comes from (the data's scale), and the way back to it once the user has set γ. */
function GammaScale() {
  const scale = dataScale.value;
  if (!scale) return null;
  const norm = probeCertifySettings.value.norm;
  const fallback = defaultGamma(scale.medianNorm, scale.cols, norm);
  return (
    <p class="hint" data-testid="certify-gamma-default">
      Default γ = {formatMeasure(fallback)}: a tenth of a typical row's length (median ‖x‖ ={' '}
      {formatMeasure(scale.medianNorm)} over {scale.sampled.toLocaleString('en-US')} rows)
      {norm === 'inf' ? `, over √${scale.cols} per coordinate` : ''}.{' '}
      {gammaSetByUser.value && (
        <button type="button" class="link" onClick={resetGamma}>
          Use the default
        </button>
      )}
    </p>
  );
}
