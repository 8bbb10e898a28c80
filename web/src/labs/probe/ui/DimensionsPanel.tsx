// "Which dimensions matter" for the selected query of the Probe tab: the top k embedding dimensions by
// certified |Δ_γ| of the judged probability (each with its interval: sound bounds from branch and bound
// on the two one-sided boxes of that dimension) and LIME's top k beside them, an honest note on what a
// dimension of an embedding is, and the CSV of every dimension (the header of `gpprobe explain`).
import {
  cancelQueryExplanation,
  explainingRow,
  explainRow,
  PROBE_EXPLAIN_FORM,
  probeExplainSettings,
  queryExplanation,
  queryExplanationCsv,
  topDimensions,
  updateProbeExplainSettings,
  type DimensionRow,
} from '../state/explain_store.ts';
import { useState } from 'preact/hooks';
import { problemsIn } from '../../../common/state/field_problems.ts';
import { dataset, probeBasis, selected } from '../../../common/state/session_store.ts';
import { saveBlob } from '../../../common/ui/download.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { MinNumberField } from '../../../common/ui/MinNumberField.tsx';
import '../../../common/ui/certify.css';
import './dimensions.css';

/** [lower, upper] with as many significant digits (3 to 6) as it takes for the two ends to differ: a
 * tight certified interval is not shown as a point. */
export function intervalText(lower: number, upper: number): string {
  for (let digits = 3; digits <= 6; digits++) {
    const a = lower.toPrecision(digits),
      b = upper.toPrecision(digits);
    if (a !== b || digits === 6) return `[${a}, ${b}]`;
  }
  return `[${lower}, ${upper}]`;
}

const sign = (r: DimensionRow) => (r.deltaLower > 0 ? 'raises' : r.deltaUpper < 0 ? 'lowers' : 'either way');

export function DimensionsPanel() {
  const [includeConstant, setIncludeConstant] = useState(false);
  const row = selected.value,
    d = dataset.value,
    s = probeExplainSettings.value;
  const problems = problemsIn(PROBE_EXPLAIN_FORM);
  if (row === null || !d) return null;
  const result = queryExplanation.value?.row === row ? queryExplanation.value : null;
  const busy = explainingRow.value === row;
  const top = result ? topDimensions(result.explanation, Math.max(1, Math.round(s.top)), includeConstant) : null;
  const constant = result
    ? result.explanation.features.filter((_, a) => result.explanation.constantInTraining?.[a])
    : [];
  // Nearly constant: off their most common value in just one or fewer than 2 % of the observations.
  const nearly = result
    ? result.explanation.features.filter((_, a) => result.explanation.nearlyConstantInTraining?.[a])
    : [];
  return (
    <div class="certify-panel dimensions-panel" data-testid="dimensions-panel">
      <h3>Which dimensions matter</h3>
      <div class="row">
        <MinNumberField
          label="γ"
          ariaLabel="explain gamma"
          form={PROBE_EXPLAIN_FORM}
          value={s.gamma}
          min={0}
          onChange={(gamma) => updateProbeExplainSettings({ gamma })}
        />
        <MinNumberField
          label="top k"
          ariaLabel="explain top k"
          form={PROBE_EXPLAIN_FORM}
          value={s.top}
          min={1}
          step="1"
          onChange={(top) => updateProbeExplainSettings({ top })}
        />
        <MinNumberField
          label="LIME samples"
          ariaLabel="explain lime samples"
          form={PROBE_EXPLAIN_FORM}
          value={s.limeSamples}
          min={0}
          step="1"
          onChange={(limeSamples) => updateProbeExplainSettings({ limeSamples: Math.round(limeSamples) })}
        />
        <label class="field compact">
          <span>LIME's "off"</span>
          <select
            aria-label="explain baseline"
            title="What LIME switches a dimension off to"
            value={s.baseline}
            onChange={(e) =>
              updateProbeExplainSettings({ baseline: e.currentTarget.value === 'zero' ? 'zero' : 'mean' })
            }
          >
            <option value="mean">mean</option>
            <option value="zero">0</option>
          </select>
        </label>
      </div>
      {problems.length > 0 && (
        <ul class="field-error">
          {problems.map((x) => (
            <li>{x}</li>
          ))}
        </ul>
      )}
      <div class="row">
        <button type="button" class="small" disabled={busy} onClick={() => void explainRow(row)}>
          Explain row {row}
        </button>
        {busy && (
          <button type="button" class="small" onClick={cancelQueryExplanation}>
            Cancel
          </button>
        )}
        {result && (
          <button
            type="button"
            class="small"
            data-testid="dimensions-csv"
            onClick={() =>
              saveBlob(new Blob([queryExplanationCsv(result)], { type: 'text/csv' }), `explain-row-${result.row}.csv`)
            }
          >
            CSV
          </button>
        )}
      </div>
      {result && constant.length + nearly.length > 0 && (
        <p class="hint" data-testid="dimensions-constant">
          {constant.length > 0 &&
            `${constant.length === 1 ? '1 dimension is' : `${constant.length} dimensions are`} constant in the probe's observations (${constant.slice(0, 8).join(', ')}${constant.length > 8 ? ', …' : ''}). `}
          {nearly.length > 0 &&
            `${nearly.length === 1 ? '1 dimension is' : `${nearly.length} dimensions are`} nearly constant (off their most common value in just one or fewer than 2 % of the observations: ${nearly.slice(0, 8).join(', ')}${nearly.length > 8 ? ', …' : ''}). `}
          Moving the query along {constant.length + nearly.length === 1 ? 'it' : 'one'} moves it away from (nearly)
          every observation in a direction they (hardly) explored, so the judged probability drifts towards the prior
          and its Δ measures distance from the observations, not evidence.{' '}
          {includeConstant ? 'They are ranked like the others.' : 'Left out of the ranking.'}{' '}
          <button
            type="button"
            class="small link"
            data-testid="dimensions-include-constant"
            onClick={() => setIncludeConstant(!includeConstant)}
          >
            {includeConstant ? 'Set them apart' : 'Include them'}
          </button>
        </p>
      )}
      {result && top && (
        <div class="certify-result" data-testid="dimensions-result">
          <p class="hint">
            Δ of dimension i: how much the judged probability's range moves when a* moves by up to γ ={' '}
            {result.settings.gamma} along i only, up minus down (both extremes, certified); positive: raising i raises
            it.
            {result.basis !== probeBasis.value ? ' The probe has changed since: explain again.' : ''}
          </p>
          <div class="dimensions-tables">
            <table class="certify-table" data-testid="dimensions-delta">
              <caption>
                certified Δ_γ (top {top.delta.length} of {result.explanation.features.length})
              </caption>
              <thead>
                <tr>
                  <th scope="col">dim</th>
                  <th scope="col">Δ interval</th>
                  <th scope="col">Δ</th>
                  <th scope="col">effect</th>
                </tr>
              </thead>
              <tbody>
                {top.delta.map((r) => (
                  <tr
                    data-testid="dimensions-row"
                    data-dimension={r.dimension}
                    data-value={`${r.deltaLower},${r.deltaUpper}`}
                  >
                    <th scope="row">{r.dimension}</th>
                    <td class="num">{intervalText(r.deltaLower, r.deltaUpper)}</td>
                    <td class="num">{r.delta.toPrecision(3)}</td>
                    <td>{sign(r)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {top.lime.length > 0 && (
              <table class="certify-table" data-testid="dimensions-lime">
                <caption>LIME (local linear surrogate)</caption>
                <thead>
                  <tr>
                    <th scope="col">dim</th>
                    <th scope="col">coefficient</th>
                  </tr>
                </thead>
                <tbody>
                  {top.lime.map((r) => (
                    <tr data-testid="dimensions-lime-row" data-dimension={r.dimension}>
                      <th scope="row">{r.dimension}</th>
                      <td class="num">{formatMeasure(r.lime)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <p class="hint" data-testid="dimensions-status">
            {result.explanation.unconverged > 0
              ? `${result.explanation.unconverged} searches stopped at their limit (their intervals are valid, only wider). `
              : ''}
            {result.explanation.features.length} dimensions × 4 certified searches in{' '}
            {(result.seconds * 1000).toFixed(0)} ms.
            {top.lime.length > 0 &&
              ` LIME: ${result.settings.limeSamples} samples, weighted R² ${formatMeasure(result.explanation.limeScore[0])}.`}
          </p>
          <p class="hint" data-testid="dimensions-note">
            What a dimension means here: a coordinate of the embedding, nothing more. Embedding models spread a concept
            over many coordinates and a single coordinate rarely has a meaning of its own; rotating the embedding would
            change every number here and none of the probe's verdicts. Read the list as “the probe's verdict for this
            query is most sensitive along these axes of this embedding”, a statement about the probe and this
            representation, not about the input. LIME's coefficients are a linear fit to on/off switches of each
            coordinate (to LIME's “off” value), so they answer another question, and are not certified.
          </p>
        </div>
      )}
    </div>
  );
}
