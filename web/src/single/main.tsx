// Entry of the one-file page (docs/embed.md, "One file"; built by scripts/make/build_single.mjs): the
// app's shell over the data inlined in the page. The engine worker's script is inlined too, started as
// a classic blob worker (Chromium refuses module workers from blob: URLs on file:// pages, whose
// origin is opaque; classic ones run).
import { render } from 'preact';
import EngineWorker from '../app/engine_worker.ts?worker&inline';
import type { WorkerPort } from '../app/engine_client.ts';
import { App } from '../app/App.tsx';
import { Banner } from './Banner.tsx';
import { startPage } from './start_page.ts';
import '../app/app.css';
import './single.css';

function spawnEngine(): WorkerPort {
  return new EngineWorker() as unknown as WorkerPort;
}

render(<Banner />, document.getElementById('gpprobe-banner')!);
render(<App />, document.getElementById('app')!);
void startPage(spawnEngine);
