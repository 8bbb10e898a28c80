// A compact number field that takes a typed value only when it is a finite number ≥ `min`. Anything else
// (empty, text, below min) stays on screen, marked invalid, and is recorded as a problem of its form
// (common/state/field_problems.ts), so the form's action refuses to run on a value the user did not
// give: the certify settings of the Classification and Probe tabs. A text field (not type="number"),
// so that what was typed ("abc") is what the message quotes, not the empty string a number input reports.
import { useEffect, useState } from 'preact/hooks';
import { parseMinNumber, setFieldProblem } from '../state/field_problems.ts';

export function MinNumberField({
  label,
  ariaLabel,
  form,
  value,
  min,
  onChange,
  disabled,
}: {
  label: string;
  ariaLabel?: string;
  form: string;
  value: number;
  min: number;
  /** Unused since the field is text; kept for callers. */
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
        type="text"
        inputMode="decimal"
        value={refused ?? value}
        aria-label={name}
        disabled={disabled}
        aria-invalid={refused !== null}
        onChange={(e) => {
          const text = e.currentTarget.value;
          const parsed = parseMinNumber(text, min, name);
          if ('problem' in parsed) {
            setRefused(text);
            // Every message says what the field accepts.
            const accepts = `give a number ≥ ${min}`;
            setFieldProblem(
              form,
              name,
              parsed.problem.includes(accepts) ? parsed.problem : `${parsed.problem}; ${accepts}`,
            );
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
