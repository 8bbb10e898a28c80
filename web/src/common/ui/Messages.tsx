// Errors and notices, newest last; errors stay until dismissed.
import { useEffect } from 'preact/hooks';
import { dismiss, messages } from '../state/engine_tasks.ts';

export function Messages() {
  const list = messages.value;
  useEffect(() => {
    const timers = list.filter((m) => m.kind === 'info').map((m) => setTimeout(() => dismiss(m.id), 8000));
    return () => timers.forEach(clearTimeout);
  }, [list]);
  return (
    <div class="messages" aria-live="assertive">
      {list.map((m) => (
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
