// A positive number on a log scale, the one field of its kind in the app (the probe's ε and s, the
// regression lab's kernel parameters, the classification lab's hyperparameters): a log-scale slider for
// watching things change, and an exact number field (the value typed is the double the core gets, all
// 17 digits; anything but a finite number > 0 is refused with a message naming the field and what it
// accepts, the text kept on screen, and the setting left as it was). The slider moves in
// steps of 1/1000 of its range and gives values rounded to SLIDER_DIGITS significant digits; the field
// shows FIELD_DIGITS of them, with the exact value in its title and data-value. With `onHold`, "hold"
// keeps the value while the others are fitted.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { parsePositive } from './number_text.ts';
import { startPointerGesture } from '../state/gesture.ts';

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
  heading,
  onChange,
}: {
  name: string;
  /** How the message of a refused value names the field (default `name`). */
  heading?: string;
  value: number;
  disabled?: boolean;
  onChange(v: number): void;
}) {
  const [text, setText] = useState<string | null>(null);
  /** Why the text on screen was refused (null: nothing refused). */
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setText(null);
    setProblem(null);
  }, [value, disabled]);
  return (
    <>
      <input
        type="text"
        inputMode="decimal"
        class="number"
        value={text ?? display(value)}
        title={String(value)}
        disabled={disabled}
        aria-label={name}
        aria-invalid={problem !== null}
        data-value={String(value)}
        onInput={(e) => setText(e.currentTarget.value)}
        onChange={(e) => {
          const parsed = parsePositive(e.currentTarget.value, heading ?? name);
          if ('problem' in parsed) {
            setText(e.currentTarget.value);
            setProblem(`${parsed.problem}; still ${display(value)}`);
            return;
          }
          setText(null);
          setProblem(null);
          onChange(parsed.value);
        }}
      />
      {problem && (
        <span class="field-error" role="alert" data-testid="field-problem" style={{ gridColumn: '1 / -1' }}>
          {problem}
        </span>
      )}
    </>
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
        onPointerDown={startPointerGesture}
        onInput={(e) => onChange(sliderValue(Number(e.currentTarget.value), min, max))}
      />
      <PositiveNumberField
        name={label}
        heading={typeof heading === 'string' ? heading : name}
        value={value}
        disabled={disabled}
        onChange={onChange}
      />
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
