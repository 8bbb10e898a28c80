// A positive number on a log scale, the one field of its kind in the app (the probe's ε and s, the
// regression lab's kernel parameters, the classification lab's hyperparameters): a log-scale slider for
// watching things change, and an exact number field (the value typed is the double the core gets, all
// 17 digits; anything but a finite number > 0 leaves the setting as it was). The slider moves in
// steps of 1/1000 of its range and gives values rounded to SLIDER_DIGITS significant digits; the field
// shows FIELD_DIGITS of them, with the exact value in its title and data-value. With `onHold`, "hold"
// keeps the value while the others are fitted.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const SLIDER_DIGITS = 4;
export const FIELD_DIGITS = 4;

/** The slider position (0..1) of `value` on [min, max], log scale, clamped. */
export function sliderPosition(value: number, min: number, max: number): number {
  return Math.min(1, Math.max(0, (Math.log(value) - Math.log(min)) / (Math.log(max) - Math.log(min))));
}

/** The value at slider position t (0..1) on [min, max], log scale, to SLIDER_DIGITS significant digits. */
export function sliderValue(t: number, min: number, max: number): number {
  return Number(Math.exp(Math.log(min) + t * (Math.log(max) - Math.log(min))).toPrecision(SLIDER_DIGITS));
}

const display = (v: number) => String(Number(v.toPrecision(FIELD_DIGITS)));

/** A field for a positive number that takes what is typed on Enter or when it loses focus. Text typed
 * and not yet taken is dropped when the value changes from elsewhere (a fit's learned values) or the field
 * is disabled (a fit starts from the values as they are): the field never shows a number the model does
 * not have. */
export function PositiveNumberField({
  name,
  value,
  disabled = false,
  onChange,
}: {
  name: string;
  value: number;
  disabled?: boolean;
  onChange(v: number): void;
}) {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => setText(null), [value, disabled]);
  return (
    <input
      type="text"
      inputMode="decimal"
      class="number"
      value={text ?? display(value)}
      title={String(value)}
      disabled={disabled}
      aria-label={name}
      data-value={String(value)}
      onInput={(e) => setText(e.currentTarget.value)}
      onChange={(e) => {
        const v = Number(e.currentTarget.value);
        setText(null);
        if (Number.isFinite(v) && v > 0) onChange(v);
      }}
    />
  );
}

interface Props {
  name: string;
  /** The fields' accessible name when the same name appears more than once on the page; default `name`. */
  label?: string;
  /** What the field is headed with; default the name as code. */
  heading?: ComponentChildren;
  value: number;
  /** Slider range (log scale); the number field accepts any value > 0. */
  min: number;
  max: number;
  held?: boolean;
  disabled?: boolean;
  onChange(value: number): void;
  onHold?(held: boolean): void;
}

export function LogScaleField({
  name,
  label = name,
  heading,
  value,
  min,
  max,
  held = false,
  disabled = false,
  onChange,
  onHold,
}: Props) {
  return (
    <div class={`field log-scale${onHold ? ' with-hold' : ''}`}>
      <span>{heading ?? <code>{name}</code>}</span>
      <input
        type="range"
        min={0}
        max={1}
        step={0.001}
        value={sliderPosition(value, min, max)}
        disabled={disabled}
        aria-label={`${label} slider`}
        onInput={(e) => onChange(sliderValue(Number(e.currentTarget.value), min, max))}
      />
      <PositiveNumberField name={label} value={value} disabled={disabled} onChange={onChange} />
      {onHold && (
        <label class="hold" title="Keep this value while fitting the others">
          <input
            type="checkbox"
            checked={held}
            disabled={disabled}
            aria-label={`hold ${label}`}
            onChange={(e) => onHold(e.currentTarget.checked)}
          />{' '}
          hold
        </label>
      )}
    </div>
  );
}
