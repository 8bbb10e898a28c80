// The app shell: header (data, upload, undo/redo, exports, views), the sidebar that defines the probe,
// and the current lab's view (the lab registry: labs/index.ts, labs/views.ts). Files can be dropped anywhere on the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { importSessionFile, loadDemo, sessionJson, uploadFiles } from './data_actions.ts';
import {
  canRedo,
  canUndo,
  dataset,
  demos,
  engineFused,
  engineThreads,
  queryRows,
  redo,
  results,
  session,
  undo,
} from '../common/state/session_store.ts';
import { autoRun, currentResults, runProbe } from '../labs/probe/state/probe_store.ts';
import { saveBlob } from '../common/ui/download.ts';
import { resultsCsv } from '../labs/probe/ui/export_results.ts';
import { Messages } from '../common/ui/Messages.tsx';
import { ConceptPanel } from '../labs/probe/ui/ConceptPanel.tsx';
import { HyperparametersPanel } from '../labs/probe/ui/HyperparametersPanel.tsx';
import { ObservationsPanel } from '../labs/probe/ui/ObservationsPanel.tsx';
import { QueriesPanel } from '../labs/probe/ui/QueriesPanel.tsx';
import { TaskBar } from '../common/ui/TaskBar.tsx';
import { tasks } from '../common/state/engine_tasks.ts';
import { columns } from '../common/state/session_store.ts';
import { activeTab, type Tab } from './view_state.ts';
import { LABS, tabsOf } from '../labs/index.ts';
import { LAB_VIEWS } from '../labs/views.ts';
import { Prompts } from '../common/ui/Prompts.tsx';
import { ShareActions } from './ShareActions.tsx';
import { TabList, TabPanel } from './TabList.tsx';
import { countOf, formatBytes } from '../common/ui/format.ts';

/** The tab strip: one tab per lab of the registry (labs/index.ts), labelled with the lab's name. */
const TABS = tabsOf(LABS);

export function App() {
  const view = activeTab.value;
  const setView = (tab: Tab) => {
    activeTab.value = tab;
  };
  const [dragging, setDragging] = useState(false);
  // Narrow screens: the sidebar is a drawer, opened from the header (app.css).
  const [drawer, setDrawer] = useState(false);
  const lab = LAB_VIEWS[view];
  const withSidebar = lab.probeSettings;
  const View = lab.view;
  const upload = useRef<HTMLInputElement>(null);
  const sessionFile = useRef<HTMLInputElement>(null);
  const d = dataset.value;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (target.tagName === 'INPUT' || target.tagName === 'SELECT' || target.tagName === 'TEXTAREA') return;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) redo();
        else undo();
      } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The results of the current observations: a refit still on its way is waited for, never mixed in.
  const exportCsv = async () => {
    const r = await currentResults();
    if (r)
      saveBlob(resultsCsv(r.scores, columns.value, r.labels, r.observations, queryRows.value), 'gpprobe-results.csv');
  };
  const exportSession = () => saveBlob(new Blob([sessionJson()], { type: 'application/json' }), 'gpprobe-session.json');

  return (
    <div
      class={`app ${dragging ? 'dragging' : ''} ${tasks.value.length ? 'with-tasks' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.relatedTarget === null) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        void uploadFiles(Array.from(e.dataTransfer?.files ?? []));
      }}
    >
      <header class="top">
        <div class="brand">
          <h1>
            <span class="logo" aria-hidden="true">
              ◐
            </span>{' '}
            gpprobe <span class="tagline">Gaussian process probes</span>
          </h1>
          {engineThreads.value !== null && (
            <span
              class="engine-threads"
              title={
                engineThreads.value > 1
                  ? 'The engine scores on several threads: this page is cross-origin isolated (COOP/COEP headers).'
                  : 'The engine runs on one thread: threads need a cross-origin isolated page (COOP/COEP headers; docs/library.md "Loading").'
              }
            >
              {countOf(engineThreads.value, 'thread')}
            </span>
          )}
          {engineFused.value !== null && (
            <span
              class="engine-simd"
              title={
                engineFused.value
                  ? 'Relaxed SIMD: the engine multiplies and adds in one fused instruction (FMA), 15-20 % faster scoring.'
                  : 'WebAssembly SIMD without fused multiply-add: this browser has no relaxed SIMD, or its CPU no FMA.'
              }
            >
              {engineFused.value ? 'FMA' : 'SIMD'}
            </span>
          )}
        </div>
        {withSidebar && (
          <button
            type="button"
            class="drawer-toggle"
            aria-expanded={drawer}
            aria-controls="probe-settings"
            onClick={() => setDrawer(!drawer)}
          >
            ☰ Probe settings
          </button>
        )}
        <div class="data">
          <select
            aria-label="Dataset"
            value={session.value.data?.kind === 'demo' ? session.value.data.id : ''}
            onChange={(e) => {
              const id = (e.target as HTMLSelectElement).value;
              if (id) void loadDemo(id);
            }}
          >
            {session.value.data?.kind !== 'demo' && <option value="">{d ? d.name : 'no data'}</option>}
            {demos.value.map((demo) => (
              <option value={demo.id}>Demo: {demo.title}</option>
            ))}
          </select>
          <button type="button" class="primary" onClick={() => upload.current?.click()}>
            Upload embeddings
          </button>
          <input
            ref={upload}
            type="file"
            multiple
            hidden
            aria-label="Embeddings files"
            accept=".npy,.npz,.csv,.tsv,.txt,.json,.jsonl,.ndjson,.safetensors,.parquet,.bytes,.png"
            onChange={(e) => {
              const files = Array.from((e.target as HTMLInputElement).files ?? []);
              (e.target as HTMLInputElement).value = '';
              void uploadFiles(files);
            }}
          />
        </div>
        <div class="actions">
          <button type="button" onClick={undo} disabled={!canUndo.value} title="Undo (Ctrl+Z)">
            Undo
          </button>
          <button type="button" onClick={redo} disabled={!canRedo.value} title="Redo (Ctrl+Shift+Z)">
            Redo
          </button>
          {lab.resultsExport && (
            <button type="button" onClick={() => void exportCsv()} disabled={!results.value}>
              Export results (CSV)
            </button>
          )}
          <button type="button" onClick={exportSession} disabled={!d}>
            Export session
          </button>
          <ShareActions />
          <button type="button" onClick={() => sessionFile.current?.click()}>
            Import session
          </button>
          <input
            ref={sessionFile}
            type="file"
            accept=".json,application/json"
            hidden
            aria-label="Session file"
            onChange={async (e) => {
              const f = (e.target as HTMLInputElement).files?.[0];
              (e.target as HTMLInputElement).value = '';
              if (f) await importSessionFile(f);
            }}
          />
        </div>
      </header>
      <div class="body">
        {withSidebar && drawer && <div class="drawer-backdrop" onClick={() => setDrawer(false)} aria-hidden="true" />}
        {withSidebar && (
          <aside class={`sidebar ${drawer ? 'open' : ''}`} id="probe-settings" aria-label="Probe settings">
            <button type="button" class="drawer-close" onClick={() => setDrawer(false)}>
              Close settings ✕
            </button>
            {d && (
              <section class="panel data-panel">
                <h3>Data</h3>
                <p class="dataset-name">{d.name}</p>
                <p class="hint">
                  {countOf(d.rows, 'row')} × {countOf(d.cols, 'dimension')} ·{' '}
                  {countOf(d.columns.length, 'metadata column')}
                  {d.files.length ? ` · ${formatBytes(d.files.reduce((s, f) => s + f.size, 0))}` : ''}
                </p>
                {demos.value.find((x) => session.value.data?.kind === 'demo' && x.id === session.value.data.id)
                  ?.description && (
                  <p class="hint">
                    {
                      demos.value.find((x) => session.value.data?.kind === 'demo' && x.id === session.value.data.id)!
                        .description
                    }
                  </p>
                )}
              </section>
            )}
            <ConceptPanel />
            {d && <ObservationsPanel />}
            {d && <QueriesPanel />}
            <HyperparametersPanel />
            {d && (
              <section class="panel run-panel">
                <button type="button" class="primary wide" onClick={() => void runProbe()}>
                  Run probe
                </button>
                <label class="toggle">
                  <input
                    type="checkbox"
                    checked={autoRun.value}
                    onChange={(e) => {
                      autoRun.value = (e.target as HTMLInputElement).checked;
                    }}
                  />{' '}
                  update automatically
                </label>
              </section>
            )}
          </aside>
        )}
        <main class="content">
          <TabList tabs={TABS} selected={view} onSelect={setView} label="Views" idPrefix="view" class="tabs" />
          <TabPanel idPrefix="view" selected={view}>
            <View />
          </TabPanel>
        </main>
      </div>
      {/* After the page, sticky at the window's bottom: long work's progress and Cancel stay in view
          wherever the user scrolled to start it. */}
      <TaskBar />
      <Messages />
      <Prompts />
      {dragging && <div class="drop-overlay">Drop embeddings (and metadata) files to load them</div>}
    </div>
  );
}
