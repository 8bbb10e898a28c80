// Entry of the app: the engine starts in a worker, the UI renders at once and fills in as work finishes.
import { render } from 'preact';
import { setDensityGrid, start } from './state/startup.ts';
import type { WorkerPort } from './worker/engine_client.ts';
import { App } from './ui/App.tsx';
import { DENSITY_GRID } from './ui/panels/HyperparametersPanel.tsx';
import './ui/app.css';

setDensityGrid(DENSITY_GRID);
render(<App />, document.getElementById('app')!);
// Every lab's requests go to this one worker script (a second instance only for cancellable long wasm calls).
void start(() => new Worker(new URL('./worker/engine_worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerPort);
