// Errors and notices, newest last; errors stay until dismissed. At most the newest two are shown whole:
// earlier ones fold into one line ("3 earlier messages", Show all / Dismiss all), so a run of failures
// never stacks over the controls the user needs to act on them.
import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { dismiss, messages } from '../state/engine_tasks.ts';

/** How many of the newest messages are shown whole while the rest are folded. */
export const SHOWN_MESSAGES = 2;

export function Messages() {
  const list = messages.value;
  const expanded = useSignal(false);
  useEffect(() => {
    const timers = list.filter((m) => m.kind === 'info').map((m) => setTimeout(() => dismiss(m.id), 8000));
    return () => timers.forEach(clearTimeout);
  }, [list]);
  const folded = expanded.value ? 0 : Math.max(0, list.length - SHOWN_MESSAGES);
  return (
    <div class="messages" aria-live="assertive" data-testid="messages">
      {list.length > SHOWN_MESSAGES && (
        <div class="message folded" data-testid="messages-folded">
          <span>
            {expanded.value ? `${list.length} messages` : `${folded} earlier ${folded === 1 ? 'message' : 'messages'}`}
          </span>
          <button type="button" class="link" onClick={() => (expanded.value = !expanded.value)}>
            {expanded.value ? 'Show fewer' : 'Show all'}
          </button>
          <button type="button" class="link" onClick={() => list.forEach((m) => dismiss(m.id))}>
            Dismiss all
          </button>
        </div>
      )}
      {list.slice(folded).map((m) => (
        <div key={m.id} class={`message ${m.kind}`} role={m.kind === 'error' ? 'alert' : 'status'}>
          <span>
            {m.text}
            {m.count > 1 && (
              <span class="repeat" aria-label={`said ${m.count} times`}>
                {' '}
                ×{m.count}
              </span>
            )}
          </span>
          <button type="button" class="link" aria-label="Dismiss" onClick={() => dismiss(m.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
