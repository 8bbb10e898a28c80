// Entry of the app: the engine starts in a worker, the UI renders at once and fills in as work finishes.
// `?embed=1` renders the embed (embed/): the plots and a few controls, state in its own URL only.
import { render } from 'preact';
import { currentPageOptions } from './link_actions.ts';
import { start } from './startup.ts';
import type { WorkerPort } from './engine_client.ts';
import engineWorkerUrl from './engine_worker.ts?worker&url';
import { App } from './App.tsx';
import { connectToHost, reportLinkFailure } from '../embed/host_bridge.ts';
import { EmbedApp } from '../embed/EmbedApp.tsx';
import './app.css';

/**
 * Every lab's requests go to this one worker script (a second instance only for cancellable long wasm
 * calls). It starts from a blob module that imports it: a blob worker inherits this page's
 * Content-Security-Policy, so connect-src governs its downloads too (a worker loaded from its own URL
 * gets no policy from the page's <meta> tag and could fetch from anywhere).
 */
function spawnEngine(): WorkerPort {
  const source = `import ${JSON.stringify(new URL(engineWorkerUrl, document.baseURI).href)};\n`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url, { type: 'module' });
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return worker as unknown as WorkerPort;
}

const options = currentPageOptions();
if (options.embed) {
  document.documentElement.classList.add('embedded');
  render(<EmbedApp views={options.views} />, document.getElementById('app')!);
  void connectToHost().then(() => start(spawnEngine, { persistent: false, onLinkFailed: reportLinkFailure }));
} else {
  render(<App />, document.getElementById('app')!);
  void start(spawnEngine, { persistent: true });
}
