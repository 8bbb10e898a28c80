// Where the classification lab's data come from: a bundled example or a CSV (feature columns and one
// label column, with a choice of columns), and with more than two features the plane the maps show:
// two chosen columns, the others held at chosen values. A bad file shows its error here and leaves the
// loaded data as they were.
import { ColumnChoice, DataSourcePanel } from '../../../common/ui/DataSourcePanel.tsx';
import type { ClassificationData, Plane } from '../state/classification_data.ts';
import {
  chooseColumns, choice, data, dataError, exampleName, loadExample, plane, setPlane, table, uploadCsv, vocabulary,
} from '../state/classification_store.ts';
import { formatCount } from '../../../common/ui/format.ts';

/** With more than two features: which two the maps show, and where the others are held. */
function PlaneChoice({ d, p }: { d: ClassificationData; p: Plane }) {
  const axis = (which: 'x' | 'y') => (
    <label class="field compact">
      <span>{which === 'x' ? 'horizontal' : 'vertical'} axis</span>
      <select aria-label={`${which === 'x' ? 'Horizontal' : 'Vertical'} axis column`} value={p[which]}
        onChange={(e) => setPlane({ [which]: Number(e.currentTarget.value) })}>
        {d.inputNames.map((name, j) => <option value={j} disabled={j === p[which === 'x' ? 'y' : 'x']}>{name}</option>)}
      </select>
    </label>
  );
  return (
    <div class="plane-choice">
      <div class="row">{axis('x')}{axis('y')}</div>
      <p class="hint">The other columns are held at these values (the data's medians to start):</p>
      <div class="held-values">
        {d.inputNames.map((name, j) => (j === p.x || j === p.y ? null : (
          <label class="field compact">
            <span>{name}</span>
            <input type="number" step="any" value={p.held[j]} aria-label={`held value of ${name}`}
              onChange={(e) => {
                const v = Number(e.currentTarget.value);
                if (Number.isFinite(v)) setPlane({ held: p.held.map((h, k) => (k === j ? v : h)) });
              }} />
          </label>
        )))}
      </div>
    </div>
  );
}

export function DataPanel() {
  const d = data.value, t = table.value, c = choice.value, p = plane.value;
  const counts = d ? [0, 0] : null;
  if (d && counts) for (const v of d.labels) counts[v > 0 ? 1 : 0] += 1;
  return (
    <DataSourcePanel lab="classification" name="Classification" examples={vocabulary.value?.examples ?? []} current={exampleName.value ?? ''}
      dataName={d?.name ?? null} error={dataError.value} onExample={(name) => void loadExample(name)} onFile={(f) => void uploadCsv(f)}>
      {d && counts && (
        <div data-testid="classification-data-summary">
          <p class="dataset-name">{d.name}</p>
          <p class="hint">
            {formatCount(d.labels.length)} points ({formatCount(counts[0])} of class {d.classNames[0]}, {formatCount(counts[1])} of class {d.classNames[1]})
            {' '}· {d.x.cols} feature{d.x.cols > 1 ? 's' : ''} ({d.inputNames.join(', ')}) · label column {d.labelName}
          </p>
          {d.notes.map((n) => <p class="hint">{n}</p>)}
        </div>
      )}
      {t && c && <ColumnChoice columns={t.columns} target={c.label} inputs={c.features} targetLabel="label column (0/1, −1/+1 or two text values)"
        targetAriaLabel="Label column" targetColumns={t.columns} inputsLegend="feature columns" inputAriaPrefix="feature"
        onChoose={(label, features) => chooseColumns({ label, features })} />}
      {d && p && d.x.cols > 2 && <PlaneChoice d={d} p={p} />}
      <p class="hint">CSV: feature columns and a label column (named label, class, y or target, else the last one).</p>
    </DataSourcePanel>
  );
}
