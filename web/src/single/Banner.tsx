// The one-file page's banner: what this page is, what needs the hosted app, and why its data did not
// open when they did not.
import { useState } from 'preact/hooks';
import { pageFailure } from './page_files.ts';

export function Banner() {
  const [open, setOpen] = useState(true);
  const failure = pageFailure.value;
  if (failure)
    return (
      <div class="one-file-banner failed" role="alert">
        {failure}
      </div>
    );
  if (!open) return null;
  return (
    <div class="one-file-banner" role="note" aria-label="About this page">
      <span>
        A one-file gpprobe page: it runs offline, on one thread, on the data inside it. Threads, data by URL, the demos
        and links that reproduce need the hosted app (gpprobe's docs/embed.md, “One file”).
      </span>
      <button type="button" class="small" onClick={() => setOpen(false)} aria-label="Hide this note">
        ×
      </button>
    </div>
  );
}
