// Which rows are queries: every row, or a subset chosen by metadata values (e.g. only the test split).
// The probe scores every row either way; plots, table and export show the subset.
import { distinctValues } from '../../../common/state/session.ts';
import { columns, commit, queryRows, session } from '../../../common/state/session_store.ts';
import { ValuePicker } from '../../../common/ui/ValuePicker.tsx';

export function QueriesPanel() {
  const s = session.value;
  const cols = columns.value;
  const subset = s.queries;
  const column = subset.kind === 'values' ? cols.find((c) => c.name === subset.column) : undefined;
  if (cols.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="queries-heading">
      <h3 id="queries-heading">Queries</h3>
      <label class="field">
        <span>Show</span>
        <select
          aria-label="Query subset column"
          value={subset.kind === 'values' ? subset.column : ''}
          onChange={(e) => {
            const name = (e.target as HTMLSelectElement).value;
            const c = cols.find((x) => x.name === name);
            commit({
              ...s,
              queries: c ? { kind: 'values', column: name, values: distinctValues(c, 1) } : { kind: 'all' },
            });
          }}
        >
          <option value="">every row</option>
          {cols.map((c) => (
            <option value={c.name}>rows by {c.name}</option>
          ))}
        </select>
      </label>
      {subset.kind === 'values' && column && (
        <ValuePicker
          column={column}
          selected={subset.values}
          label="Query subset values"
          onChange={(values) => commit({ ...s, queries: { ...subset, values } })}
        />
      )}
      {queryRows.value && (
        <p class="hint">
          {queryRows.value.length.toLocaleString()} query rows shown in the plots, the table and the export.
        </p>
      )}
    </section>
  );
}
