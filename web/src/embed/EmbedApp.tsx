// Embed mode (?embed=1, and the <gpprobe-probe> element): the probe's plots and the few controls a
// reader needs — the view, ε and s, what the map is coloured by, the selected query — in whatever
// frame it is given (600 × 400 and up), with no header chrome and a link that opens the same probe
// in the full app. Its state lives in its own URL only (state/link_actions.ts), never in the
// origin-wide saved session.
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { EmbedView } from '../app/link_params.ts';
import { linkUrl } from '../app/link_actions.ts';
import { embedFailure } from './host_bridge.ts';
import { columns, dataset, labels, queryRows, results, selected, session } from '../common/state/session_store.ts';
import { setHyperparameters, toggleObservation } from '../labs/probe/state/probe_store.ts';
import { formatMeasure } from '../common/ui/format.ts';
import { useElementSize } from '../common/ui/element_size.ts';
import { Messages } from '../common/ui/Messages.tsx';
import { PositiveNumberField } from '../common/ui/LogScaleField.tsx';
import { PlotView } from '../common/ui/PlotView.tsx';
import { ColorBySelect, thumbnailOf, useProbePlots } from '../labs/probe/ui/ProbeView.tsx';
import { Thumbnail } from '../common/ui/Thumbnail.tsx';
import { Prompts } from '../common/ui/Prompts.tsx';
import { ResultsTable } from '../labs/probe/ui/ResultsTable.tsx';
import { TabList } from '../app/TabList.tsx';
import { TaskBar } from '../common/ui/TaskBar.tsx';
import { CompareEmbed } from '../labs/compare/ui/CompareEmbed.tsx';
import { compareView, record } from '../labs/compare/state/compare_store.ts';
import './embed.css';

const LABELS: Record<EmbedView, string> = {
  map: 'Map',
  judged: 'Judged',
  alea: 'Alea',
  belief: 'Belief',
  table: 'Table',
  profile: 'Profile',
  grid: 'Grid',
};

/** ε or s, typed (commits on Enter or blur). */
function NumberField({
  name,
  label,
  value,
  onChange,
}: {
  name: string;
  label: string;
  value: number;
  onChange(v: number): void;
}) {
  return (
    <label class="embed-field">
      <span>{label}</span>
      <PositiveNumberField name={name} value={value} onChange={onChange} />
    </label>
  );
}

function SelectionLine() {
  const row = selected.value,
    r = results.value,
    y = labels.value;
  if (row === null || !r) return <span class="embed-selection hint">Click a point to select a query.</span>;
  return (
    <span class="embed-selection" data-testid="embed-selection">
      <Thumbnail row={row} size={24} />
      row {row}
      {y ? (y[row] ? ' (shows it)' : ' (does not)') : ''}: judged {formatMeasure(r.scores.judgedProbability[row])} ·
      episteme {formatMeasure(r.scores.episteme[row])}
    </span>
  );
}

export function EmbedApp({ views }: { views: EmbedView[] }) {
  // A comparison's link may say which of its views to show first (profile or grid), when the embed offers it.
  const linked = compareView.value;
  const [view, setView] = useState<EmbedView>(views[0]);
  const compared = record.value !== null;
  useEffect(() => {
    if (compared && linked !== 'table' && views.includes(linked)) setView(linked);
  }, [compared, linked]);
  const [main, { height }] = useElementSize<HTMLDivElement>();
  const d = dataset.value,
    r = results.value,
    s = session.value;
  const plots = useProbePlots();
  const observationSet = useMemo(() => new Set(s.observations), [s.observations]);
  const pick = (row: number | null) => {
    if (row !== null) selected.value = row;
  };
  // The card's header takes ~30 px of the main area; the plot gets the rest.
  const plotHeight = Math.max(120, height - 34);
  const compareShown = view === 'profile' || view === 'grid';
  const probeConcept = s.concept
    ? `${s.concept.column} ${s.concept.kind === 'values' ? `∈ {${s.concept.positives.join(', ')}}` : `≥ ${s.concept.threshold}`}`
    : 'no concept';
  // The Compare lab's views name what is compared: the concepts of the grid, or the sidebar's.
  const grid = record.value?.run.comparison.concepts;
  const concept =
    compareShown && grid
      ? `${record.value!.representations.length} representations × ${grid.length === 1 ? grid[0].concept : `${grid.length} concepts`}`
      : probeConcept;
  return (
    <div class="embed">
      <header class="embed-top">
        {views.length > 1 && (
          <TabList<EmbedView>
            tabs={views.map((v) => ({ id: v, label: LABELS[v] }))}
            selected={view}
            onSelect={(v) => setView(v)}
            label="Views"
            idPrefix="embed"
            class="embed-tabs"
          />
        )}
        <span class="embed-title" title={d ? `${d.name} · ${concept}` : (embedFailure.value ?? '')}>
          {d ? `${d.name} · ${concept}` : embedFailure.value ? 'not loaded' : 'loading…'}
        </span>
        <a class="embed-open" href={d ? linkUrl() : undefined} target="_blank" rel="noopener">
          Open in gpprobe ↗
        </a>
      </header>
      <TaskBar />
      <div
        class="embed-main"
        ref={main}
        {...(views.length > 1 ? { role: 'tabpanel', id: 'embed-panel', 'aria-labelledby': `embed-tab-${view}` } : {})}
      >
        {!d && embedFailure.value ? (
          <p class="embed-failure" role="alert" data-testid="embed-failure">
            Not loaded: {embedFailure.value}
          </p>
        ) : (
          height > 0 &&
          (view === 'profile' || view === 'grid' ? (
            <CompareEmbed view={view} height={plotHeight} />
          ) : view === 'map' ? (
            <PlotView
              spec={plots.mapSpec}
              overlay={plots.mapOverlay}
              height={plotHeight}
              tooltip={plots.tooltip}
              thumbnail={thumbnailOf(40)}
              onPick={pick}
              empty="computing the map…"
              testId="map-plot"
            />
          ) : view === 'judged' ? (
            <PlotView
              spec={plots.judged}
              overlay={plots.judgedOverlay}
              height={plotHeight}
              tooltip={plots.tooltip}
              thumbnail={thumbnailOf(40)}
              onPick={pick}
              empty="running the probe…"
              testId="judged-plot"
            />
          ) : view === 'alea' ? (
            <PlotView
              spec={plots.alea}
              overlay={plots.aleaOverlay}
              height={plotHeight}
              tooltip={plots.tooltip}
              thumbnail={thumbnailOf(40)}
              onPick={pick}
              empty="running the probe…"
              testId="alea-plot"
            />
          ) : view === 'belief' ? (
            <PlotView
              spec={plots.beliefSpec}
              height={plotHeight}
              empty="Select a query to see its belief."
              testId="belief-plot"
            />
          ) : (
            d && (
              <ResultsTable
                scores={r?.scores ?? null}
                columns={columns.value}
                rows={d.rows}
                subset={queryRows.value}
                labels={labels.value}
                observations={observationSet}
                selected={selected.value}
                onSelect={(row) => {
                  selected.value = row;
                }}
                onToggleObservation={toggleObservation}
                thumbnail={thumbnailOf(22)}
                height={height - 2}
              />
            )
          ))
        )}
      </div>
      {!compareShown && (
        <footer class="embed-controls">
          <NumberField name="epsilon" label="ε" value={s.epsilon} onChange={(v) => setHyperparameters(v, s.strength)} />
          <NumberField
            name="strength"
            label="s"
            value={s.strength}
            onChange={(v) => setHyperparameters(s.epsilon, v)}
          />
          {view === 'map' && <ColorBySelect />}
          <SelectionLine />
        </footer>
      )}
      <Messages />
      <Prompts />
    </div>
  );
}
