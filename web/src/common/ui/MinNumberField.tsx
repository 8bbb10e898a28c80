// A compact number field that takes a typed value only when it is a finite number ≥ `min` (anything
// else leaves the setting as it was): the certify settings of the Classification and Probe tabs.
export function MinNumberField({ label, ariaLabel, value, min, step, onChange, disabled }: {
  label: string; ariaLabel?: string; value: number; min: number; step?: string; onChange: (v: number) => void; disabled?: boolean;
}) {
  return (
    <label class="field compact">
      <span>{label}</span>
      <input type="number" min={min} step={step ?? 'any'} value={value} aria-label={ariaLabel ?? label} disabled={disabled}
        onChange={(e) => { const v = Number(e.currentTarget.value); if (Number.isFinite(v) && v >= min) onChange(v); }} />
    </label>
  );
}
