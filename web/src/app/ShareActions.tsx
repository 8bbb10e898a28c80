// Sharing from the header: "Copy link" (a link that reproduces this probe, shown to copy by hand
// when the clipboard refuses, with its embed variant), "Download as one file" (the app, the data and the
// session in one .html that runs offline: single/download_one_file.ts) and "Export probe" (the probe
// file for `gpprobe probe --probe` and `engine.loadProbe`).
import { useState } from 'preact/hooks';
import { copiedLink, copyLink, linkUrl } from './link_actions.ts';
import { probeFile } from '../labs/probe/state/probe_export.ts';
import { dataset, session } from '../common/state/session_store.ts';
import { saveBlob, slug } from '../common/ui/download.ts';
import { report } from '../common/state/engine_tasks.ts';
import { oneFileHtml } from '../single/download_one_file.ts';

export function ShareActions() {
  const link = copiedLink.value;
  const local = session.value.data?.kind === 'upload';
  const exportProbe = async () => {
    const bytes = await probeFile();
    if (bytes) saveBlob(new Blob([bytes as BlobPart], { type: 'application/json' }), 'gpprobe.probe.json');
  };
  const [writing, setWriting] = useState(false);
  const downloadOneFile = async () => {
    setWriting(true);
    try {
      const html = await oneFileHtml();
      saveBlob(new Blob([html], { type: 'text/html' }), `${slug(dataset.value?.name ?? 'gpprobe')}.gpprobe.html`);
    } catch (error) {
      report(new Error(`Not written: ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      setWriting(false);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={() => void copyLink()}
        disabled={!dataset.value}
        title="A link that opens this probe: data, concept, observations, ε, s, view"
      >
        Copy link
      </button>
      <button
        type="button"
        onClick={() => void downloadOneFile()}
        disabled={!dataset.value || writing}
        title="This page with its data and session in one .html file that runs offline, from disk or any static host"
      >
        {writing ? 'Writing…' : 'Download as one file'}
      </button>
      <button
        type="button"
        onClick={() => void exportProbe()}
        disabled={!dataset.value}
        title="The fitted probe as a file for gpprobe probe --probe and engine.loadProbe"
      >
        Export probe
      </button>
      {link && (
        <div class="link-popover card" role="dialog" aria-label="Link to this probe">
          <p>
            {link.copied ? 'Link copied.' : 'Copy this link:'}
            {local && ' Your data was uploaded from this computer: whoever opens the link must upload the same files.'}
          </p>
          <p class="hint" data-testid="link-refits">
            Opening the link fits the probe again from its observations.
            {link.refitted
              ? ' This page had updated the probe one observation at a time, so it was fitted again just now, as the link will be: its scores may have changed in their last digits (about 1e-15, the same probe rounded along another path), and what it exports from now on matches the link.'
              : ''}
          </p>
          <input
            type="text"
            readOnly
            value={link.url}
            aria-label="Link to this probe"
            onFocus={(e) => (e.target as HTMLInputElement).select()}
          />
          <label class="hint">
            Embed it:{' '}
            <input
              type="text"
              readOnly
              aria-label="Embed code"
              value={`<iframe src="${linkUrl({ embed: true })}" width="600" height="400" style="border:0" title="gpprobe"></iframe>`}
              onFocus={(e) => (e.target as HTMLInputElement).select()}
            />
          </label>
          <button
            type="button"
            class="small"
            onClick={() => {
              copiedLink.value = null;
            }}
          >
            Close
          </button>
        </div>
      )}
    </>
  );
}
