// Two-stage anomaly detection (Butler et al., "Trustworthy Prediction with Gaussian Process Knowledge
// Scores", Fig. 2): a point is "unknown" when its knowledge G < ρ, otherwise an "anomaly" when |y − mean| >
// θ · sd(y), otherwise "normal". The sliders recolour the data, held-out points and the Fig. 3 experiment
// through the core; the button reproduces Fig. 3.
import { dataStatus, experimentStatus, runExperiment, setThresholds, thresholds } from '../state/anomaly_store.ts';
import { ANOMALY_STATUSES } from '../../../engine/vocabulary.ts';

/** A linear slider with a number field beside it (the probe's hyperparameters use a log scale). */
function Slider({
  label,
  name,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  name: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange(v: number): void;
}) {
  return (
    <label class="field slider">
      <span>{label}</span>
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-label={`${name} slider`}
        onInput={(e) => onChange(Number(e.currentTarget.value))}
      />
      <input
        type="number"
        class="number"
        min={min}
        max={max}
        step={step}
        value={value}
        aria-label={name}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          if (v >= min && v <= max) onChange(v);
        }}
      />
    </label>
  );
}

/** "48 normal · 2 anomaly · 0 unknown" */
export function statusCounts(statuses: Uint8Array): string {
  const counts = [0, 0, 0];
  for (const s of statuses) counts[s]++;
  return ANOMALY_STATUSES.map((name, k) => `${counts[k]} ${name}`).join(' · ');
}

export function AnomalyPanel() {
  const { rho, theta } = thresholds.value;
  const d = dataStatus.value,
    e = experimentStatus.value;
  return (
    <section class="panel" aria-labelledby="regression-anomaly-heading">
      <h3 id="regression-anomaly-heading">Anomaly detection</h3>
      <Slider
        label="ρ: knowledge gate (unknown if G < ρ)"
        name="rho"
        value={rho}
        min={0}
        max={1}
        step={0.01}
        onChange={(v) => setThresholds({ rho: v })}
      />
      <Slider
        label="θ: anomaly if |y − mean| > θ · sd(y)"
        name="theta"
        value={theta}
        min={0.5}
        max={6}
        step={0.1}
        onChange={(v) => setThresholds({ theta: v })}
      />
      <div data-testid="status-counts">
        {d && <p class="hint">data: {statusCounts(d.data.statuses)}</p>}
        {d?.extra && <p class="hint">held out: {statusCounts(d.extra.statuses)}</p>}
        {e && <p class="hint">Fig. 3 test points: {statusCounts(e.statuses)}</p>}
      </div>
      <button type="button" class="wide" onClick={() => void runExperiment()}>
        Reproduce Fig. 3 (knowledge-gated ROC)
      </button>
      <p class="hint">
        50 training points on [0, 1] with a few U(−5, 5) anomalies, 1,000 test points on [−1, 2]; the model is fitted by
        maximum marginal likelihood, then the ROC of the anomaly score is compared over all test points and over those
        with G ≥ ρ.
      </p>
    </section>
  );
}
