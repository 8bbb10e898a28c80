// A compact number field that takes a typed value only when it is a finite number ≥ `min`. Anything else
// (empty, text, below min) stays on screen, marked invalid, and is recorded as a problem of its form
// (common/state/field_problems.ts), so the form's action refuses to run on a value the user did not
// give: the certify settings of the Classification and Probe tabs.
import { useEffect, useState } from 'preact/hooks';
import { parseMinNumber, setFieldProblem } from '../state/field_problems.ts';

export function MinNumberField({
  label,
  ariaLabel,
  form,
  value,
  min,
  step,
  onChange,
  disabled,
}: {
  label: string;
  ariaLabel?: string;
  form: string;
  value: number;
  min: number;
  step?: string;
  onChange: (v: number) => void;
  disabled?: boolean;
}) {
  const name = ariaLabel ?? label;
  /** What was typed and refused (null: the field shows the setting). */
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => () => setFieldProblem(form, name, null), [form, name]);
  return (
    <label class="field compact">
      <span>{label}</span>
      <input
        type="number"
        min={min}
        step={step ?? 'any'}
        value={refused ?? value}
        aria-label={name}
        disabled={disabled}
        aria-invalid={refused !== null}
        onChange={(e) => {
          const text = e.currentTarget.value;
          // A number input reports text it cannot read ("-", "1e") as '': say so rather than take 0.
          const parsed = e.currentTarget.validity.badInput
            ? { problem: `${name}: '${text}' is not a number` }
            : parseMinNumber(text, min, name);
          if ('problem' in parsed) {
            setRefused(text);
            setFieldProblem(form, name, parsed.problem);
            return;
          }
          setRefused(null);
          setFieldProblem(form, name, null);
          onChange(parsed.value);
        }}
      />
    </label>
  );
}
