// Long work in progress: what it is, how far along, and a Cancel button.
import { tasks } from '../state/engine_tasks.ts';

export function TaskBar() {
  const list = tasks.value;
  if (list.length === 0) return null;
  return (
    <div class="task-bar" role="status" aria-live="polite">
      {list.map((t) => (
        <div class="task" key={t.id}>
          <span class="task-label">{t.label}{t.progress ? ` · ${t.progress.stage}` : ''}</span>
          <progress max={1} value={t.progress?.fraction ?? undefined} aria-label={`${t.label} progress`} />
          {t.cancel && <button type="button" class="small" onClick={() => t.cancel?.()}>Cancel</button>}
        </div>
      ))}
    </div>
  );
}
