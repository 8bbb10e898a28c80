// Where the regression lab's data come from: a bundled example, or a CSV (x columns and y, a time
// column of dates, or y alone against the row index) with a choice of columns. A bad file shows its
// error here and leaves the loaded data as they were.
import { useRef } from 'preact/hooks';
import type { Column } from '../../../io/table.ts';
import { chooseColumns, choice, dataError, example, loadExample, series, table, uploadCsv, vocabulary } from '../state/regression_store.ts';
import type { SeriesChoice } from '../state/regression_series.ts';
import { formatCount } from '../../../common/ui/format.ts';

function ColumnChoice({ columns, current }: { columns: Column[]; current: SeriesChoice }) {
  const numeric = columns.filter((c) => c.kind === 'number');
  const inputs = columns.filter((c) => c.name !== current.y);
  const toggle = (name: string, on: boolean) => chooseColumns({
    y: current.y, x: on ? [...current.x, name] : current.x.filter((x) => x !== name),
  });
  return (
    <div class="column-choice">
      <label class="field">
        <span>y (target)</span>
        <select aria-label="y column" value={current.y}
          onChange={(e) => chooseColumns({ y: e.currentTarget.value, x: current.x.filter((x) => x !== e.currentTarget.value) })}>
          {numeric.map((c) => <option value={c.name}>{c.name}</option>)}
        </select>
      </label>
      <fieldset class="field inputs">
        <legend>inputs x (none: the row index)</legend>
        {inputs.map((c) => (
          <label class="toggle">
            <input type="checkbox" checked={current.x.includes(c.name)} aria-label={`input ${c.name}`}
              onChange={(e) => toggle(c.name, e.currentTarget.checked)} /> {c.name}
            {c.kind === 'string' ? <span class="hint"> (text or dates)</span> : null}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

export function DataPanel() {
  const file = useRef<HTMLInputElement>(null);
  const data = series.value, t = table.value, c = choice.value;
  const current = example.value?.example.name ?? '';
  return (
    <section class="panel" aria-labelledby="regression-data-heading">
      <h3 id="regression-data-heading">Data</h3>
      <label class="field">
        <span>Bundled example</span>
        <select aria-label="Regression example" value={current}
          onChange={(e) => { const name = e.currentTarget.value; if (name) void loadExample(name); }}>
          {current === '' && <option value="">{data ? `(${data.name})` : '—'}</option>}
          {(vocabulary.value?.examples ?? []).map((x) => <option value={x.name}>{x.title}</option>)}
        </select>
      </label>
      <button type="button" onClick={() => file.current?.click()}>Load CSV…</button>
      <input ref={file} type="file" hidden accept=".csv,.tsv,.txt" aria-label="Regression CSV file"
        onChange={(e) => { const f = e.currentTarget.files?.[0]; e.currentTarget.value = ''; if (f) void uploadCsv(f); }} />
      {dataError.value && <p class="field-error" data-testid="regression-data-error">{dataError.value}</p>}
      {data && (
        <div data-testid="regression-data-summary">
          <p class="dataset-name">{data.name}</p>
          <p class="hint">
            {formatCount(data.y.length)} points · input {data.x.cols === 1 ? data.xNames[0] : `${data.x.cols} columns`} · target {data.yName}
          </p>
          {data.notes.map((n) => <p class="hint">{n}</p>)}
        </div>
      )}
      {t && c && <ColumnChoice columns={t.columns} current={c} />}
      <p class="hint">CSV: input columns and y (the last numeric column, or one named y), a time column of dates
        (2021-03-01), or a single column of values against the row index.</p>
    </section>
  );
}
