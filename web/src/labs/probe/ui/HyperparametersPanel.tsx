// ε and s with live plots of what they imply: the prior of g(a) (exact Beta(ε, ε) beside the GP's
// logit-normal) and the belief after one negative, or one positive and one negative, observation at
// the same point (paper Figs 9-11), so a user can choose them by looking.
import { useMemo, useState } from 'preact/hooks';
import { beliefGrid, beliefPreview } from '../plots/belief_plots.ts';
import { preview, session, setHyperparameters } from '../../../common/state/store.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';

export const DENSITY_GRID = beliefGrid();

export interface SliderProps {
  label: string;
  name: string;
  value: number;
  min: number;
  max: number;
  onChange(v: number): void;
}

/** A field for a positive number that takes what is typed on Enter or when it loses focus. */
export function PositiveNumberInput({ name, value, onChange, class: className }: { name: string; value: number; onChange(v: number): void; class?: string }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <input type="number" class={className} step="any" value={text ?? String(value)} aria-label={name}
      onInput={(e) => setText((e.target as HTMLInputElement).value)}
      onChange={(e) => {
        const v = Number((e.target as HTMLInputElement).value);
        setText(null);
        if (Number.isFinite(v) && v > 0) onChange(v);
      }} />
  );
}

/** A log-scale slider with an exact number field beside it. */
function LogSlider({ label, name, value, min, max, onChange }: SliderProps) {
  const toSlider = (v: number) => (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min));
  const fromSlider = (t: number) => Number(Math.exp(Math.log(min) + t * (Math.log(max) - Math.log(min))).toPrecision(3));
  return (
    <label class="field slider">
      <span>{label}</span>
      <input type="range" min={0} max={1} step={0.001} value={toSlider(value)} aria-label={`${name} slider`}
        onInput={(e) => onChange(fromSlider(Number((e.target as HTMLInputElement).value)))} />
      <PositiveNumberInput class="number" name={name} value={value} onChange={onChange} />
    </label>
  );
}

const betaParameter = (v: number) => String(Number(v.toPrecision(4)));

export function HyperparametersPanel() {
  const { epsilon, strength } = session.value;
  const p = preview.value;
  // Each curve's Beta parameters are the core's (belief_densities.h), labelled as it gives them.
  const specs = useMemo(() => p && ([
    [p.prior, 'Prior of g(a)'], [p.oneNegative, 'After one negative observation'],
    [p.onePositiveOneNegative, 'After one positive and one negative'],
  ] as const).map(([c, title]) => beliefPreview(DENSITY_GRID, c.beta, c.approximation, title, `Beta(${betaParameter(c.belief.betaA)}, ${betaParameter(c.belief.betaB)})`)), [p]);
  return (
    <section class="panel" aria-labelledby="hyper-heading">
      <h3 id="hyper-heading">Hyperparameters</h3>
      <LogSlider label="ε (prior Beta(ε, ε))" name="epsilon" value={epsilon} min={0.01} max={10} onChange={(v) => setHyperparameters(v, strength)} />
      <LogSlider label="s (observation strength)" name="strength" value={strength} min={0.1} max={100} onChange={(v) => setHyperparameters(epsilon, v)} />
      <p class="hint">ε &lt; 1: the concept is believed crisp (mass near 0 and 1); ε = 1: uniform; ε &gt; 1: fuzzy. Larger s: each observation counts more.</p>
      <div class="previews">
        {specs ? specs.map((spec) => <PlotView spec={spec} height={150} />) : <p class="hint">computing…</p>}
      </div>
    </section>
  );
}
