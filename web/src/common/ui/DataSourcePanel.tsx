// The data panel of a lab with its own small tables (common/state/data_source.ts): a bundled example,
// "Load CSV…", the last problem, and the lab's summary and hints as children; ColumnChoice picks the
// target column and the input columns of a loaded CSV. The regression and classification labs use both.
import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';
import type { Column } from '../../io/table.ts';

interface PanelProps {
  /** The lab's id (element ids, test ids) and name (accessible names: "<Name> example", "<Name> CSV file"). */
  lab: string;
  name: string;
  examples: readonly { name: string; title: string }[];
  /** The example shown (its name), or '' when the data came from a CSV. */
  current: string;
  /** The loaded data's name, shown while no example is selected. */
  dataName: string | null;
  error: string | null;
  onExample(name: string): void;
  onFile(file: File): void;
  children: ComponentChildren;
}

export function DataSourcePanel({
  lab,
  name,
  examples,
  current,
  dataName,
  error,
  onExample,
  onFile,
  children,
}: PanelProps) {
  const file = useRef<HTMLInputElement>(null);
  return (
    <section class="panel" aria-labelledby={`${lab}-data-heading`}>
      <h3 id={`${lab}-data-heading`}>Data</h3>
      <label class="field">
        <span>Bundled example</span>
        <select
          aria-label={`${name} example`}
          value={current}
          onChange={(e) => {
            const example = e.currentTarget.value;
            if (example) onExample(example);
          }}
        >
          {current === '' && <option value="">{dataName ? `(${dataName})` : '—'}</option>}
          {examples.map((x) => (
            <option value={x.name}>{x.title}</option>
          ))}
        </select>
      </label>
      <button type="button" onClick={() => file.current?.click()}>
        Load CSV…
      </button>
      <input
        ref={file}
        type="file"
        hidden
        accept=".csv,.tsv,.txt"
        aria-label={`${name} CSV file`}
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (f) onFile(f);
        }}
      />
      {error && (
        <p class="field-error" data-testid={`${lab}-data-error`}>
          {error}
        </p>
      )}
      {children}
    </section>
  );
}

interface ChoiceProps {
  columns: Column[];
  /** The target (y, or the label) column and the input columns chosen. */
  target: string;
  inputs: readonly string[];
  targetLabel: string;
  targetAriaLabel: string;
  /** The columns the target may be. */
  targetColumns: Column[];
  inputsLegend: string;
  /** Accessible name of an input's checkbox: `${inputAriaPrefix} ${column}`. */
  inputAriaPrefix: string;
  /** A note after an input column's name. */
  inputNote?(column: Column): ComponentChildren;
  onChoose(target: string, inputs: string[]): void;
}

export function ColumnChoice(p: ChoiceProps) {
  const toggle = (name: string, on: boolean) =>
    p.onChoose(p.target, on ? [...p.inputs, name] : p.inputs.filter((x) => x !== name));
  return (
    <div class="column-choice">
      <label class="field">
        <span>{p.targetLabel}</span>
        <select
          aria-label={p.targetAriaLabel}
          value={p.target}
          onChange={(e) => {
            const t = e.currentTarget.value;
            p.onChoose(
              t,
              p.inputs.filter((x) => x !== t),
            );
          }}
        >
          {p.targetColumns.map((c) => (
            <option value={c.name}>{c.name}</option>
          ))}
        </select>
      </label>
      <fieldset class="field inputs">
        <legend>{p.inputsLegend}</legend>
        {p.columns
          .filter((c) => c.name !== p.target)
          .map((c) => (
            <label class="toggle">
              <input
                type="checkbox"
                checked={p.inputs.includes(c.name)}
                aria-label={`${p.inputAriaPrefix} ${c.name}`}
                onChange={(e) => toggle(c.name, e.currentTarget.checked)}
              />{' '}
              {c.name}
              {p.inputNote?.(c)}
            </label>
          ))}
      </fieldset>
    </div>
  );
}
