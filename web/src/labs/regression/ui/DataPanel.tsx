// Where the regression lab's data come from: a bundled example, or a CSV (x columns and y, a time
// column of dates, or y alone against the row index) with a choice of columns. A bad file shows its
// error here and leaves the loaded data as they were.
import { ColumnChoice, DataSourcePanel } from '../../../common/ui/DataSourcePanel.tsx';
import {
  chooseColumns,
  choice,
  dataError,
  example,
  loadExample,
  series,
  table,
  uploadCsv,
  vocabulary,
} from '../state/regression_store.ts';
import { formatCount } from '../../../common/ui/format.ts';

export function DataPanel() {
  const data = series.value,
    t = table.value,
    c = choice.value;
  return (
    <DataSourcePanel
      lab="regression"
      name="Regression"
      examples={vocabulary.value?.examples ?? []}
      current={example.value?.example.name ?? ''}
      dataName={data?.name ?? null}
      error={dataError.value}
      onExample={(name) => void loadExample(name)}
      onFile={(f) => void uploadCsv(f)}
    >
      {data && (
        <div data-testid="regression-data-summary">
          <p class="dataset-name">{data.name}</p>
          <p class="hint">
            {formatCount(data.y.length)} points · input {data.x.cols === 1 ? data.xNames[0] : `${data.x.cols} columns`}{' '}
            · target {data.yName}
          </p>
          {data.notes.map((n) => (
            <p class="hint">{n}</p>
          ))}
        </div>
      )}
      {t && c && (
        <ColumnChoice
          columns={t.columns}
          target={c.y}
          inputs={c.x}
          targetLabel="y (target)"
          targetAriaLabel="y column"
          targetColumns={t.columns.filter((col) => col.kind === 'number')}
          inputsLegend="inputs x (none: the row index)"
          inputAriaPrefix="input"
          inputNote={(col) => (col.kind === 'string' ? <span class="hint"> (text or dates)</span> : null)}
          onChoose={(y, x) => chooseColumns({ y, x })}
        />
      )}
      <p class="hint">
        CSV: input columns and y (the last numeric column, or one named y), a time column of dates (2021-03-01), or a
        single column of values against the row index.
      </p>
    </DataSourcePanel>
  );
}
