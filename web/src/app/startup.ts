// Start-up and the app's side effects: the engine worker client (one for every lab), the demo list,
// opening what the URL asks for (a link) or else the last session, saving the session on every change
// (not in embeds, which keep their state in their own URL), keeping the link in the address bar; then
// the probe lab follows the session (labs/probe/state/probe_effects.ts).
import { effect } from '@preact/signals';
import { EngineClient, type WorkerPort } from './engine_client.ts';
import { loadDemo, restore, setPersistent } from './data_actions.ts';
import { notify, report, setEngineClient } from '../common/state/engine_tasks.ts';
import { keepLinkInAddressBar, openFromLocation, startLabLinks } from './link_actions.ts';
import {
  backend,
  dataset,
  engineFused,
  engineThreads,
  demos,
  session,
  SESSION_KEY,
  type DemoEntry,
} from '../common/state/session_store.ts';
import { followSession } from '../labs/probe/state/probe_effects.ts';

export interface StartOptions {
  /** Read and write the session saved in this browser (false in embeds). */
  persistent: boolean;
  /**
   * Embeds: when the link's data fails, show nothing else (never the demo, whose results a host would
   * take for its data's) and call this with the reason (host_bridge.ts tells the element).
   */
  onLinkFailed?: (reason: string) => void;
}

/** Starts the app; `spawn` starts an instance of the engine worker (engine_client.ts). */
export async function start(spawn: () => WorkerPort, { persistent, onLinkFailed }: StartOptions): Promise<void> {
  setPersistent(persistent);
  const client = new EngineClient(spawn);
  setEngineClient(client);
  try {
    const info = await client.ready;
    backend.value = info.backend;
    engineThreads.value = info.threads;
    engineFused.value = info.fused;
  } catch (error) {
    report(error);
    return;
  }
  try {
    const manifest = await fetch(new URL('demo/manifest.json', document.baseURI)).then(
      (r) => r.json() as Promise<{ datasets: DemoEntry[] }>,
    );
    demos.value = manifest.datasets;
  } catch {
    notify('error', 'The demo datasets could not be loaded (demo/manifest.json).');
  }
  // A link that fails (or waits for its uploaded files) leaves the saved session as it was: the page
  // shows that session, and saving starts only below, once what is shown is settled (issue 23, item 5).
  const link = await openFromLocation();
  if (link.kind === 'failed' && onLinkFailed) {
    onLinkFailed(link.reason);
    return;
  }
  const opened = link.kind === 'opened' || (persistent && (await restore()));
  if (!opened && !dataset.value && demos.value.length > 0) await loadDemo(demos.value[0].id, { keepPending: true });

  // Save the session on every change (settings only; uploaded files are in IndexedDB).
  if (persistent) {
    effect(() => {
      const s = session.value;
      try {
        localStorage.setItem(SESSION_KEY, JSON.stringify(s));
      } catch {
        // storage full or disabled: the session still works, it just will not survive a reload
      }
    });
  }
  keepLinkInAddressBar();
  startLabLinks();
  followSession();
}
