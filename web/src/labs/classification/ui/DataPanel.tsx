// Where the classification lab's data come from: a bundled example or a CSV (feature columns and one
// label column, with a choice of columns), and with more than two features the plane the maps show:
// two chosen columns, the others held at chosen values. A bad file shows its error here and leaves the
// loaded data as they were.
import { ColumnChoice, DataSourcePanel } from '../../../common/ui/DataSourcePanel.tsx';
import type { ClassificationData, Plane } from '../state/classification_data.ts';
import {
  chooseColumns,
  choice,
  data,
  dataError,
  exampleName,
  examples,
  family,
  fitting,
  loadExample,
  plane,
  setPlane,
  table,
  uploadCsv,
} from '../state/classification_store.ts';
import { classCount, classCounts } from '../state/classification_data.ts';
import { formatCount } from '../../../common/ui/format.ts';

/** With more than two features: which two the maps show, and where the others are held. */
function PlaneChoice({ d, p }: { d: ClassificationData; p: Plane }) {
  const axis = (which: 'x' | 'y') => (
    <label class="field compact">
      <span>{which === 'x' ? 'horizontal' : 'vertical'} axis</span>
      <select
        aria-label={`${which === 'x' ? 'Horizontal' : 'Vertical'} axis column`}
        value={p[which]}
        onChange={(e) => setPlane({ [which]: Number(e.currentTarget.value) })}
      >
        {d.inputNames.map((name, j) => (
          <option value={j} disabled={j === p[which === 'x' ? 'y' : 'x']}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div class="plane-choice">
      <div class="row">
        {axis('x')}
        {axis('y')}
      </div>
      <p class="hint">The other columns are held at these values (the data's medians to start):</p>
      <div class="held-values">
        {d.inputNames.map((name, j) =>
          j === p.x || j === p.y ? null : (
            <label class="field compact">
              <span>{name}</span>
              <input
                type="number"
                step="any"
                value={p.held[j]}
                aria-label={`held value of ${name}`}
                onChange={(e) => {
                  const v = Number(e.currentTarget.value);
                  if (Number.isFinite(v)) setPlane({ held: p.held.map((h, k) => (k === j ? v : h)) });
                }}
              />
            </label>
          ),
        )}
      </div>
    </div>
  );
}

/** The likelihood: the binary models (logistic or probit, Laplace or EP) or softmax (Laplace), chosen
 * with the data: softmax when the labels have more than two classes (the only choice then). */
function ModelChoice({ d }: { d: ClassificationData }) {
  const C = classCount(d);
  return (
    <label class="field" data-testid="classification-family">
      <span>model</span>
      <select
        aria-label="Classification model"
        value={family.value}
        disabled={fitting.value}
        onChange={(e) => {
          family.value = e.currentTarget.value === 'softmax' ? 'softmax' : 'binary';
        }}
      >
        <option value="binary" disabled={C > 2}>
          two binary models side by side (logistic or probit; Laplace or EP)
        </option>
        <option value="softmax">softmax, Laplace (C latent GPs)</option>
      </select>
      <span class="hint">
        {C > 2
          ? `The labels have ${C} classes: the softmax likelihood (one latent GP per class, Laplace) is the model; the binary ones take two classes.`
          : family.value === 'softmax'
            ? 'Two classes with the softmax likelihood: two latent GPs (C = 2), the same as a logistic model with twice the kernel.'
            : 'Two classes: the binary models. Choose softmax to see the multi-class model on them.'}
      </span>
    </label>
  );
}

export function DataPanel() {
  const d = data.value,
    t = table.value,
    c = choice.value,
    p = plane.value;
  const counts = d ? classCounts(d) : null;
  return (
    <DataSourcePanel
      lab="classification"
      name="Classification"
      examples={examples.value}
      current={exampleName.value ?? ''}
      dataName={d?.name ?? null}
      error={dataError.value}
      onExample={(name) => void loadExample(name)}
      onFile={(f) => void uploadCsv(f)}
    >
      {d && counts && (
        <div data-testid="classification-data-summary">
          <p class="dataset-name">{d.name}</p>
          <p class="hint">
            {formatCount(d.labels.length)} points (
            {counts.map((n, k) => `${formatCount(n)} of class ${d.classNames[k]}`).join(', ')}) · {d.x.cols} feature
            {d.x.cols > 1 ? 's' : ''} (
            {d.x.cols > 8
              ? `${d.inputNames.slice(0, 3).join(', ')}, … ${d.inputNames.at(-1)}`
              : d.inputNames.join(', ')}
            ) · label column {d.labelName}
            {d.test ? ` · ${formatCount(d.test.x.rows)} more held out` : ''}
          </p>
          {d.notes.map((n) => (
            <p class="hint">{n}</p>
          ))}
          {counts.some((n) => n === 0) && (
            <p class="hint" data-testid="classification-empty-class">
              Class {counts.flatMap((n, k) => (n === 0 ? [d.classNames[k]] : [])).join(', ')} has no example (the labels
              skip {counts.filter((n) => n === 0).length === 1 ? 'its index' : 'their indices'}): the model still has
              it, with a low probability wherever there are data.
            </p>
          )}
          <ModelChoice d={d} />
        </div>
      )}
      {t && c && (
        <ColumnChoice
          columns={t.columns}
          target={c.label}
          inputs={c.features}
          targetLabel="label column (class indices 0, 1, 2, …, −1/+1 or text values)"
          targetAriaLabel="Label column"
          targetColumns={t.columns}
          inputsLegend="feature columns"
          inputAriaPrefix="feature"
          onChoose={(label, features) => chooseColumns({ label, features })}
        />
      )}
      {d && p && d.x.cols > 2 && family.value === 'binary' && <PlaneChoice d={d} p={p} />}
      <p class="hint">
        CSV: feature columns and a label column (named label, class, y or target, else the last one) of class indices 0
        … C−1 (more than two classes: the softmax model; at most 10), 0/1 or −1/+1, or text values (numbered in sorted
        order).
      </p>
    </DataSourcePanel>
  );
}
