// One positive hyperparameter, labelled with its one name (the core's): a log-scale slider for watching
// the fit change, an exact number field (the value typed is the double the core gets, all 17 digits),
// and (when onHold is given) "hold" to keep it at its value while the others are fitted.
import { useState } from 'preact/hooks';

interface Props {
  name: string;
  /** The fields' accessible name when the same name appears more than once on the page; default `name`. */
  label?: string;
  value: number;
  /** Slider range (log scale); the number field accepts any value > 0. */
  min: number;
  max: number;
  held?: boolean;
  disabled: boolean;
  onChange(value: number): void;
  onHold?(held: boolean): void;
}

const display = (v: number) => String(Number(v.toPrecision(4)));

export function ParameterField({ name, label = name, value, min, max, held = false, disabled, onChange, onHold }: Props) {
  const [text, setText] = useState<string | null>(null);
  const span = Math.log(max) - Math.log(min);
  const position = Math.min(1, Math.max(0, (Math.log(value) - Math.log(min)) / span));
  return (
    <div class="field parameter">
      <span><code>{name}</code></span>
      <input type="range" min={0} max={1} step={0.001} value={position} disabled={disabled} aria-label={`${label} slider`}
        onInput={(e) => onChange(Number(Math.exp(Math.log(min) + Number(e.currentTarget.value) * span).toPrecision(4)))} />
      <input type="text" inputMode="decimal" class="number" value={text ?? display(value)} title={String(value)} disabled={disabled}
        aria-label={label} data-value={String(value)}
        onInput={(e) => setText(e.currentTarget.value)}
        onChange={(e) => {
          const v = Number(e.currentTarget.value);
          setText(null);
          if (Number.isFinite(v) && v > 0) onChange(v);
        }} />
      {onHold && (
        <label class="hold" title="Keep this value while fitting the others">
          <input type="checkbox" checked={held} disabled={disabled} aria-label={`hold ${label}`}
            onChange={(e) => onHold(e.currentTarget.checked)} /> hold
        </label>
      )}
    </div>
  );
}
