// Start-up of the one-file page (docs/embed.md, "One file"): the engine worker from the page's own
// script (no network), then the data block read and checked (one_file_format.ts), its files opened as an
// upload of them is (so the app's readers refuse what they refuse in an upload) on the block's session,
// and the probe lab following the session. Nothing is saved in the browser: the page's state is its file.
import { effect, untracked } from '@preact/signals';
import { EngineClient, type WorkerPort } from '../app/engine_client.ts';
import { pendingLink, setPersistent, uploadFiles } from '../app/data_actions.ts';
import { linkUrl } from '../app/link_actions.ts';
import { messages, notify, setEngineClient } from '../common/state/engine_tasks.ts';
import {
  backend,
  dataset,
  engineFused,
  engineThreads,
  labels,
  opening,
  oodDataset,
  queryRows,
  results,
  resultsStale,
  session,
} from '../common/state/session_store.ts';
import { followSession } from '../labs/probe/state/probe_effects.ts';
import type { ResultsDetail } from '../embed/messages.ts';
import { DATA_BLOCK_ID, decodeDataBlock, OneFileError, type OneFileContent } from './one_file_format.ts';
import { embeddedFiles, pageFailure } from './page_files.ts';
import { targetOfState } from './state_json.ts';

function fail(message: string): void {
  pageFailure.value = message;
  notify('error', message);
  document.dispatchEvent(new CustomEvent('gpprobe-error', { detail: { message } }));
}

/** The page's data block, read and checked; null (and the failure shown) when it cannot be read. */
async function readBlock(): Promise<OneFileContent | null> {
  const element = document.getElementById(DATA_BLOCK_ID);
  if (!element) {
    fail('This page has no data block (no <script id="gpprobe-data">): it is not a one-file gpprobe page.');
    return null;
  }
  const text = element.textContent ?? '';
  // The text is read once; the element keeps nothing (the page's copy is the files below).
  element.textContent = '';
  try {
    return await decodeDataBlock(text);
  } catch (error) {
    fail(`This page's data could not be opened: ${error instanceof Error ? error.message : String(error)}.`);
    return null;
  }
}

/** The probe's numbers after every run, as the <gpprobe-probe> element's "gpprobe-results" event (docs/embed.md). */
function postResults(): void {
  effect(() => {
    if (opening.value) return;
    const r = results.value,
      d = dataset.value;
    if (!r || !d || resultsStale.value) return;
    const s = session.value,
      y = labels.value,
      subset = queryRows.value;
    const detail = {
      rows: d.rows,
      queryRows: subset ? Array.from(subset) : null,
      observations: s.observations,
      observationLabels: s.observations.map((row) => (y ? y[row] : 0)),
      concept: s.concept,
      epsilon: s.epsilon,
      strength: s.strength,
      scores: r.scores,
      link: untracked(() => linkUrl()),
    } satisfies ResultsDetail;
    document.dispatchEvent(new CustomEvent('gpprobe-results', { detail }));
  });
}

export async function startPage(spawn: () => WorkerPort): Promise<void> {
  setPersistent(false);
  const client = new EngineClient(spawn);
  setEngineClient(client);
  try {
    const info = await client.ready;
    backend.value = info.backend;
    engineThreads.value = info.threads;
    engineFused.value = info.fused;
  } catch (error) {
    // The worker's message says it ("the engine could not start: ...").
    fail(`${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  const content = await readBlock();
  if (!content) return;
  if (content.header.title) document.title = `${content.header.title} — gpprobe`;
  let target = null;
  try {
    target = content.header.state ? targetOfState(content.header.state) : null;
  } catch (error) {
    fail(`This page's session could not be opened: ${error instanceof Error ? error.message : String(error)}.`);
    return;
  }
  // Each file's bytes become a File (blob storage), and the decoded copy is let go.
  const files = content.files.map((f) => ({ file: new File([f.bytes as BlobPart], f.name), role: f.role }));
  content.files.length = 0;
  const filesOf = (role: 'main' | 'ood') => files.filter((f) => f.role === role).map((f) => f.file);
  const main = filesOf('main');
  if (target) {
    const refs = main.map((f) => ({ name: f.name, size: f.size }));
    pendingLink.value = { ...target, session: { ...target.session, data: { kind: 'upload', files: refs } } };
  }
  postResults();
  await uploadFiles(main);
  pendingLink.value = null;
  if (!dataset.value) {
    // uploadFiles reported why (the file and the problem, as for an upload): the banner says it too.
    const why = messages.value.filter((m) => m.kind === 'error').at(-1)?.text ?? 'its files were refused';
    fail(`This page's data could not be opened: ${why}`);
    return;
  }
  const ood = filesOf('ood');
  if (ood.length) {
    await uploadFiles(ood, 'ood');
    if (!oodDataset.value) notify('error', "This page's OOD set could not be opened (see the message above).");
  }
  embeddedFiles.value = files;
  followSession();
}
