// Long work in progress, for every lab: what it is, its stage and how far along, and Cancel when its
// kind can be cancelled. The app shows every task in a bar stuck to the bottom of the window (in view
// wherever the page is scrolled); a view may show its own tasks
// again where the user looks (the Evaluate tab beside its Run button).
import type { Task } from '../state/engine_tasks.ts';
import { tasks as allTasks } from '../state/engine_tasks.ts';

/** "scoring 4,096 / 10,000" when the units are countable, else the stage alone. */
function stageText(t: Task): string {
  const p = t.progress;
  if (!p) return '';
  const counted =
    p.total > 1 && Number.isInteger(p.done)
      ? ` ${p.done.toLocaleString('en-US')} / ${p.total.toLocaleString('en-US')}`
      : '';
  return ` · ${p.stage}${counted}`;
}

export function TaskBar({ tasks, class: className = 'task-bar' }: { tasks?: Task[]; class?: string }) {
  const list = tasks ?? allTasks.value;
  if (list.length === 0) return null;
  return (
    <div class={className} role="status" aria-live="polite">
      {list.map((t) => (
        <div class="task" key={t.id}>
          <span class="task-label">
            {t.label}
            {stageText(t)}
          </span>
          <progress
            max={t.progress?.total || 1}
            value={t.progress?.done ?? undefined}
            aria-label={`${t.label} progress`}
          />
          {t.cancel && (
            <button type="button" class="small" onClick={() => t.cancel?.()}>
              Cancel
            </button>
          )}
        </div>
      ))}
    </div>
  );
}
