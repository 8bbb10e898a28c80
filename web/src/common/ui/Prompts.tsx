// The question the app waits on (state/prompts.ts), as a modal dialog: load data from another site?
// which embedding of a Projector config? The first button has the focus; Escape answers "no".
import { useEffect, useRef } from 'preact/hooks';
import { prompt, type Prompt } from '../state/prompts.ts';

function HostsDialog({ p }: { p: Extract<Prompt, { kind: 'hosts' }> }) {
  return (
    <>
      <h2 id="prompt-title">Load data from another site?</h2>
      <p>
        This link asks gpprobe to download{' '}
        {p.files.map((f, i) => (
          <>
            {i ? ', ' : ''}
            <code>{f}</code>
          </>
        ))}{' '}
        from:
      </p>
      <ul class="origins">
        {p.origins.map((o) => (
          <li>
            <strong>{o}</strong>
          </li>
        ))}
      </ul>
      <p class="hint">
        gpprobe runs in your browser: the files are downloaded and probed here, and nothing of yours is sent to that
        site beyond an ordinary download request. Load only from sites you trust.
      </p>
      <div class="prompt-actions">
        <button type="button" class="primary" onClick={() => p.answer(true)}>
          Load data
        </button>
        <button type="button" onClick={() => p.answer(false)}>
          Don't load
        </button>
      </div>
    </>
  );
}

function EmbeddingDialog({ p }: { p: Extract<Prompt, { kind: 'embedding' }> }) {
  return (
    <>
      <h2 id="prompt-title">Which embedding?</h2>
      {p.missing !== undefined && (
        <p data-testid="embedding-missing">
          <strong>
            {p.config} has no embedding named “{p.missing}”.
          </strong>
        </p>
      )}
      <p>
        {p.config} offers {p.embeddings.length} embeddings:
      </p>
      <div class="prompt-choices">
        {p.embeddings.map((e, i) => (
          <button type="button" onClick={() => p.answer(i)}>
            <strong>{e.name}</strong>{' '}
            <span class="hint">
              {e.shape[0].toLocaleString()} × {e.shape[1]}
            </span>
          </button>
        ))}
      </div>
      <div class="prompt-actions">
        <button type="button" onClick={() => p.answer(null)}>
          Cancel
        </button>
      </div>
    </>
  );
}

export function Prompts() {
  const p = prompt.value;
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, [p]);
  if (!p) return null;
  const dismiss = () => (p.kind === 'hosts' ? p.answer(false) : p.answer(null));
  return (
    <div
      class="prompt-backdrop"
      onKeyDown={(e) => {
        if (e.key === 'Escape') dismiss();
      }}
    >
      <div class="prompt card" role="dialog" aria-modal="true" aria-labelledby="prompt-title" ref={box}>
        {p.kind === 'hosts' ? <HostsDialog p={p} /> : <EmbeddingDialog p={p} />}
      </div>
    </div>
  );
}
