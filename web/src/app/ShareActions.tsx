// Sharing from the header: "Copy link" (a link that reproduces this probe, shown to copy by hand
// when the clipboard refuses, with its embed variant) and "Export probe" (the probe file for
// `gpprobe probe --probe` and `engine.loadProbe`).
import { copiedLink, copyLink, linkUrl } from './link_actions.ts';
import { probeFile } from '../labs/probe/state/probe_export.ts';
import { dataset, session } from '../common/state/session_store.ts';
import { saveBlob } from '../common/ui/download.ts';

export function ShareActions() {
  const link = copiedLink.value;
  const local = session.value.data?.kind === 'upload';
  const exportProbe = async () => {
    const bytes = await probeFile();
    if (bytes) saveBlob(new Blob([bytes as BlobPart], { type: 'application/json' }), 'gpprobe.probe.json');
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
