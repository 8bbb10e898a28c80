// The regression lab's long work in progress: what it is, how far along, and Cancel (which stops the
// worker at once, even inside a wasm call, and keeps what was shown before).
import { tasks } from '../../state/regression_store.ts';

export function TaskProgress() {
  const list = tasks.value;
  if (list.length === 0) return null;
  return (
    <div class="regression-tasks" role="status" aria-live="polite">
      {list.map((t) => (
        <div class="task" key={t.id}>
          <span class="task-label">
            {t.label}
            {t.progress && t.progress.total > 1 ? ` · ${t.progress.stage} ${t.progress.done} / ${t.progress.total}` : t.progress ? ` · ${t.progress.stage}` : ''}
          </span>
          <progress max={1} value={t.progress && t.progress.total > 0 ? t.progress.done / t.progress.total : undefined}
            aria-label={`${t.label} progress`} />
          <button type="button" class="small" onClick={() => t.cancel()}>Cancel</button>
        </div>
      ))}
    </div>
  );
}
