// The Compare lab: which representation holds the concept? Several embeddings of the dataset's rows
// (layers of a network, several models) are probed with the same concept and the same observation rows
// (one fit each, the sidebar's ε and s); the table, the layer profile with 99 % intervals, a sentence on
// what the paired tests support, and with several concepts the concept × representation grid.
import { ScrollBox } from '../../../common/ui/ScrollBox.tsx';
import { useMemo, useRef, useState } from 'preact/hooks';
import { curvesPlot, profilePlot } from '../plots/profile_plot.ts';
import {
  activeRun,
  blocker,
  compareDraws,
  compareView,
  conceptChoice,
  curves,
  curvesRun,
  CURVE_TRIALS,
  loadFiles,
  loadLayersDemo,
  loadUrls,
  MAX_DRAWS,
  MAX_GRID_VALUES,
  outcome,
  record,
  representations,
  runComparison,
  runCurves,
  runTask,
  setAsideFiles,
  shownConcept,
  stale,
} from '../state/compare_store.ts';
import { compareCsv } from './compare_csv.ts';
import { CompareTable } from './CompareTable.tsx';
import { ConceptGrid } from './ConceptGrid.tsx';
import { dataset, session } from '../../../common/state/session_store.ts';
import { gridColumn } from '../state/grid_column.ts';
import { parseCount } from '../../../common/ui/number_text.ts';
import { saveBlob } from '../../../common/ui/download.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { TaskBar } from '../../../common/ui/TaskBar.tsx';
import './compare.css';

const ACCEPT = '.npy,.npz,.safetensors,.json,.bytes,.csv,.tsv,.txt,.parquet';

function Representations() {
  const reps = representations.value,
    d = dataset.value;
  const input = useRef<HTMLInputElement>(null);
  const [urlText, setUrlText] = useState('');
  const urls = urlText.split(/\s+/).filter(Boolean);
  return (
    <section class="card compare-data" aria-label="Representations">
      <header class="card-header">
        <h2>Representations</h2>
        <div class="card-actions">
          <input
            ref={input}
            type="file"
            multiple
            accept={ACCEPT}
            hidden
            data-testid="compare-files"
            aria-label="Representation files"
            onChange={(e) => {
              const files = Array.from(e.currentTarget.files ?? []);
              e.currentTarget.value = '';
              if (files.length) void loadFiles(files);
            }}
          />
          <button type="button" class="small" onClick={() => input.current?.click()}>
            Choose files…
          </button>
          <button type="button" class="small" onClick={() => void loadLayersDemo()}>
            Load the digits layers demo
          </button>
        </div>
      </header>
      <p class="hint">
        Several embeddings of the same rows, in the order of the dataset loaded in the Probe tab (its metadata defines
        the concepts): .npy files chosen together (<code>layer_00.npy … layer_11.npy</code>), an .npz or .safetensors
        with several 2-D arrays, or a <code>projector_config.json</code> with its tensors. A file{' '}
        <code>ood_&lt;name&gt;</code> is the OOD set of <code>&lt;name&gt;</code>. A Parquet file gives one
        representation per vector column. Float32 stays float32; one representation at a time enters the engine.
      </p>
      <form
        class="row compare-urls"
        onSubmit={(e) => {
          e.preventDefault();
          if (urls.length) void loadUrls(urls);
        }}
      >
        <input
          type="text"
          class="compare-url-field"
          value={urlText}
          placeholder="or URLs (space-separated)"
          aria-label="Representation URLs"
          data-testid="compare-urls"
          onInput={(e) => setUrlText(e.currentTarget.value)}
        />
        <button type="submit" class="small" disabled={urls.length === 0}>
          Load URLs
        </button>
      </form>
      {reps.length > 0 && (
        <ul class="compare-reps" data-testid="compare-representations">
          {reps.map((r) => (
            <li class={d && r.rows !== d.rows ? 'mismatch' : ''}>
              <strong>{r.name}</strong> · {r.rows.toLocaleString('en-US')} × {r.cols} float{r.dtype}
              {r.oodRows ? ` · OOD set ${r.oodRows.toLocaleString('en-US')} rows` : ''}
            </li>
          ))}
        </ul>
      )}
      {setAsideFiles.value.length > 0 && (
        <ul class="hint compare-set-aside" data-testid="compare-set-aside">
          {setAsideFiles.value.map((a) => (
            <li>
              <strong>{a.name}</strong> was set aside as metadata, not compared: it {a.reason}.
            </li>
          ))}
        </ul>
      )}
      {d && reps.length > 0 && (
        <p class="hint" data-testid="compare-concept-source">
          The concepts come from the metadata of <strong>{d.name}</strong> ({d.rows.toLocaleString('en-US')} rows;
          columns {d.columns.map((c) => c.name).join(', ') || 'none'}), the dataset of the Probe tab
          {setAsideFiles.value.length > 0
            ? `, not from ${setAsideFiles.value.map((a) => a.name).join(', ')}: to use a metadata file's columns, load it with its embeddings in the Probe tab`
            : ''}
          .
        </p>
      )}
    </section>
  );
}

function Setup() {
  const choice = conceptChoice.value,
    d = dataset.value,
    run = activeRun.value,
    task = runTask.value,
    reason = blocker.value;
  const columns = d?.columns ?? [];
  const firstColumn = gridColumn(columns, MAX_GRID_VALUES)?.name ?? '';
  /** The draws typed and refused, with why (null: the field shows the setting). */
  const [refusedDraws, setRefusedDraws] = useState<[string, string] | null>(null);
  return (
    <section class="card compare-setup" aria-label="Comparison settings">
      <div class="row compare-concepts" role="radiogroup" aria-label="Concepts">
        <label class="toggle">
          <input
            type="radio"
            name="compare-concepts"
            checked={choice.kind === 'session'}
            onChange={() => {
              conceptChoice.value = { kind: 'session' };
            }}
          />{' '}
          the sidebar's concept, with its observations
        </label>
        <label class="toggle">
          <input
            type="radio"
            name="compare-concepts"
            checked={choice.kind === 'values'}
            disabled={columns.length === 0}
            onChange={() => {
              conceptChoice.value = { kind: 'values', column: firstColumn };
            }}
          />{' '}
          every value of
        </label>
        <select
          aria-label="grid column"
          disabled={choice.kind !== 'values'}
          value={choice.kind === 'values' ? choice.column : firstColumn}
          onChange={(e) => {
            conceptChoice.value = { kind: 'values', column: e.currentTarget.value };
          }}
        >
          {columns.map((c) => (
            <option value={c.name}>{c.name}</option>
          ))}
        </select>
        <span class="hint">(the grid: at most {MAX_GRID_VALUES} values, each with the sidebar's draw)</span>
      </div>
      <div class="row compare-draws">
        <label
          class="field compact"
          title="Repeat the comparison over this many draws of the observations (1: the one set alone). The sidebar's concept: its observations resampled within each class; the grid: redrawn from the labelled rows. Seeded by the sidebar's draw seed."
        >
          <span>draws</span>
          <input
            type="text"
            inputMode="numeric"
            value={refusedDraws?.[0] ?? compareDraws.value}
            aria-label="draws of the observations"
            aria-invalid={refusedDraws !== null}
            data-testid="compare-draws"
            onChange={(e) => {
              const text = e.currentTarget.value;
              const parsed = parseCount(text, 'draws', 1, MAX_DRAWS);
              if ('problem' in parsed) {
                setRefusedDraws([text, `${parsed.problem}; still ${compareDraws.value}`]);
                return;
              }
              setRefusedDraws(null);
              compareDraws.value = parsed.value;
            }}
          />
        </label>
        {refusedDraws && (
          <p class="field-error" role="alert" data-testid="compare-draws-problem">
            {refusedDraws[1]}
          </p>
        )}
        <span class="hint">
          draws of the observations (seed {session.value.draw.seed}): a representation is called better than another
          only where a test across the draws says so at 99 %, Holm-corrected; 1 compares on the one set of observations
          alone.
        </span>
      </div>
      <div class="row compare-run">
        <button
          type="button"
          class="primary"
          disabled={run !== null || reason !== null}
          onClick={() => void runComparison()}
        >
          Compare
        </button>
        {task && <TaskBar tasks={[task]} class="eval-progress" />}
        {!run && reason && <span class="hint">{reason}</span>}
        <label
          class="field compact compare-embed-view"
          title="What an embed of this comparison's link shows first (?embed=1&views=profile,grid)"
        >
          <span>link's view</span>
          <select
            aria-label="link's view"
            value={compareView.value}
            onChange={(e) => {
              compareView.value = e.currentTarget.value as typeof compareView.value;
            }}
          >
            <option value="table">table</option>
            <option value="profile">profile</option>
            <option value="grid">grid</option>
          </select>
        </label>
      </div>
      {outcome.value && !run && (
        <p class={`eval-outcome ${outcome.value.kind}`} role="status" data-testid="compare-outcome">
          {outcome.value.text}
        </p>
      )}
    </section>
  );
}

function Results() {
  const r = record.value!;
  const comparison = r.run.comparison;
  const index = Math.min(shownConcept.value, comparison.concepts.length - 1);
  const concept = comparison.concepts[index];
  const spec = useMemo(() => profilePlot(comparison, concept), [comparison, concept]);
  const draws = concept.draws;
  const drawn = draws.mode !== 'none';
  const save = () => saveBlob(new Blob([compareCsv(comparison)], { type: 'text/csv' }), 'gpprobe-compare.csv');
  return (
    <>
      <p class={`run-summary ${stale.value ? 'stale' : ''}`} data-testid="compare-summary">
        {stale.value ? 'The data, concept, observations or hyperparameters changed since this run · ' : ''}
        {r.representations.length} representations × {comparison.concepts.length} concept
        {comparison.concepts.length === 1 ? '' : 's'} · {concept.probes[0]?.observations} observations · ε = {r.epsilon}
        , s = {r.strength} · paired tests on{' '}
        {concept.basis === 'heldout'
          ? `${concept.basisRows.toLocaleString('en-US')} held-out rows`
          : concept.basis === 'leave_one_out'
            ? 'the observations (leave-one-out)'
            : 'no rows'}{' '}
        ·{' '}
        {drawn
          ? `${draws.draws} draws of the observations (${draws.mode === 'redraw' ? `${draws.observations} each from ${draws.labelledRows.toLocaleString('en-US')} labelled rows` : `the ${draws.labelledRows} given, resampled within each class`}) · `
          : 'one set of observations · '}
        {r.run.seconds.toFixed(2)} s
      </p>
      <p class="compare-sentence" data-testid="compare-sentence">
        {concept.sentence}
      </p>
      {comparison.concepts.length > 1 && <ConceptGrid comparison={comparison} />}
      <div class="plot-grid compare-results">
        <PlotView
          spec={spec}
          height={340}
          testId="compare-profile"
          tooltip={(i) => {
            const p = concept.probes
              .map((_, k) => k)
              .filter((k) => Number.isFinite(concept.probes[k].heldoutAuroc))
              .sort((a, b) =>
                comparison.layers.layered ? comparison.layers.numbers[a] - comparison.layers.numbers[b] : a - b,
              )[i];
            const probe = concept.probes[p];
            return probe
              ? [
                  probe.name,
                  `held-out AUROC ${probe.heldoutAuroc.toFixed(3)} (${probe.heldoutAurocLower.toFixed(3)}–${probe.heldoutAurocUpper.toFixed(3)})`,
                ]
              : [];
          }}
          caption={
            drawn
              ? `The band: each representation's mean AUROC over ${draws.draws} draws of the observations with its 99 % interval (darker) and the draws' range (lighter); the bars: the first draw's held-out and leave-one-out AUROC with DeLong's 99 % intervals. Whether two differ is the Holm-corrected test across the draws (the table's p vs best), not the bands'.`
              : "Each representation's AUROC with its 99 % interval (DeLong): held-out over every labelled row that is not an observation, and leave-one-out over the observations. Whether two differ is the paired test's call (the table's p vs best), not the bars'."
          }
        />
        <section class="card compare-table-card" aria-label={`${concept.concept}: the table`}>
          <header class="card-header">
            <h2>{concept.concept}</h2>
            <div class="card-actions">
              <button type="button" class="small" data-testid="compare-export" onClick={save}>
                Export table (CSV)
              </button>
            </div>
          </header>
          <ScrollBox label={`the table of ${concept.concept}`} testId="compare-table-scroll">
            <CompareTable comparison={comparison} concept={concept} conceptIndex={index} />
          </ScrollBox>
          <p class="caption">
            {drawn
              ? `★ the highest mean over the ${draws.draws} draws; tinted: indistinguishable from it at 99 % (a t-test across the draws of the paired AUROC differences, Holm-corrected for ${draws.comparisons} comparison${draws.comparisons === 1 ? '' : 's'}); greyed: the interval of its mean reaches ½. The columns after the spread are the first draw's.`
              : "★ best; tinted: indistinguishable from it at 99 % (DeLong's paired test on this one set of observations); greyed: does not separate the concept (its interval reaches ½)."}{' '}
            The CSV has every concept and column at full precision, as <code>gpprobe compare --draws</code> writes them.
          </p>
        </section>
      </div>
    </>
  );
}

/** Evaluate's probing experiment per representation: GPP's AUROC against the observation count. */
function Curves() {
  const c = curves.value,
    busy = curvesRun.value !== null;
  const spec = useMemo(() => (c ? curvesPlot(c.curves, `Observation curves: ${c.concept}`, c.trials) : null), [c]);
  return (
    <section class="card compare-curves" aria-label="Observation curves">
      <header class="card-header">
        <h2>Observation curves</h2>
        <div class="card-actions">
          <button
            type="button"
            class="small"
            disabled={busy || representations.value.length === 0 || blocker.value !== null}
            onClick={() => void runCurves()}
          >
            {c ? 'Run again' : 'Run'} ({CURVE_TRIALS} trials, O up to 128)
          </button>
        </div>
      </header>
      <p class="hint">
        Evaluate's probing experiment on each representation for the sidebar's concept: the same trials (seed of the
        sidebar's draw), held-out queries and balanced observations 2, 4, …, 128; GPP's AUROC on the held-out queries,
        mean ± 1 sd.
      </p>
      {spec && (
        <PlotView
          spec={spec}
          height={300}
          testId="compare-curves"
          caption={`${c!.seconds.toFixed(1)} s${c!.schedule ? ` · observation counts ${c!.schedule}` : ''}`}
        />
      )}
    </section>
  );
}

export function CompareView() {
  return (
    <div class="compare-view">
      <Representations />
      <Setup />
      {record.value ? (
        <Results />
      ) : (
        <p class="empty-state eval-empty">
          {activeRun.value !== null
            ? 'Comparing: the table appears when every representation is probed.'
            : 'No comparison yet: load the representations and press Compare. On the digits layers demo this takes about a second.'}
        </p>
      )}
      {representations.value.length > 0 && <Curves />}
    </div>
  );
}
