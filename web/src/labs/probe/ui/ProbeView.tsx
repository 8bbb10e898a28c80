// The probe's results: the map of the embeddings, judged probability vs episteme (irrational region
// shaded), alea vs episteme, the belief of the selected query, and the table. Selecting a query in any
// view selects it in all.
import { useMemo, useState } from 'preact/hooks';
import { queryBelief as queryBeliefPlot } from '../plots/belief_plots.ts';
import { embeddingMap, mapObservations } from '../plots/map_plot.ts';
import { aleaVsEpisteme, judgedVsEpisteme, observationSymbols, selectionRing } from '../plots/measure_plots.ts';
import { cellText } from '../../../common/state/session.ts';
import {
  columns,
  dataset,
  labels,
  map,
  queryRows,
  results,
  resultsStale,
  selected,
  session,
} from '../../../common/state/session_store.ts';
import { envelope, queryBelief, toggleObservation } from '../state/probe_store.ts';
import { COLOR_BY, colorBy as colorBySignal } from '../state/color_by.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { CertifyPanel } from './CertifyPanel.tsx';
import { DimensionsPanel } from './DimensionsPanel.tsx';
import { DENSITY_GRID } from '../plots/belief_plots.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { MEASURE_COLUMNS, ResultsTable } from './ResultsTable.tsx';
import { currentSprite, Thumbnail } from '../../../common/ui/Thumbnail.tsx';
import { VerdictPanel } from './VerdictPanel.tsx';

/** A row's thumbnail (when the data has a sprite sheet), for tooltips and the table. */
export function thumbnailOf(size: number): ((row: number) => preact.ComponentChildren) | undefined {
  return currentSprite() ? (row) => <Thumbnail row={row} size={size} /> : undefined;
}

export function useTooltip() {
  const cols = columns.value;
  const r = results.value;
  const y = labels.value;
  return (row: number): string[] => {
    const lines = [`row ${row}${y ? (y[row] ? ' · shows the concept' : ' · does not show it') : ''}`];
    for (const c of cols.slice(0, 4)) lines.push(`${c.name}: ${cellText(c, row)}`);
    if (r) {
      lines.push(
        `judged ${formatMeasure(r.scores.judgedProbability[row])} · episteme ${formatMeasure(r.scores.episteme[row])}`,
      );
      lines.push(`alea ${formatMeasure(r.scores.alea[row])} · knowledge ${formatMeasure(r.scores.knowledge[row])}`);
    }
    return lines;
  };
}

function SelectedQuery() {
  const row = selected.value;
  const r = results.value;
  const d = dataset.value;
  if (row === null || !d)
    return <p class="hint">Select a query on a plot or in the table to see its belief and details.</p>;
  const isObservation = session.value.observations.includes(row);
  return (
    <div class="selection">
      <div class="selection-title">
        <Thumbnail row={row} size={64} />
        <strong>Row {row}</strong>
        <button type="button" class="small" onClick={() => toggleObservation(row)}>
          {isObservation ? 'Remove observation' : 'Add as observation'}
        </button>
      </div>
      <dl>
        {r &&
          MEASURE_COLUMNS.map((m) => (
            <>
              <dt>{m.label}</dt>
              <dd>{formatMeasure(r.scores[m.key][row])}</dd>
            </>
          ))}
        {columns.value.slice(0, 8).map((c) => (
          <>
            <dt>{c.name}</dt>
            <dd>{cellText(c, row)}</dd>
          </>
        ))}
      </dl>
    </div>
  );
}

/** The probe's plots for the current session and selection (the probe view's and the embed's). */
export function useProbePlots() {
  const r = results.value;
  const m = map.value;
  const y = labels.value;
  const obs = session.value.observations;
  const sel = selected.value;
  const colorBy = colorBySignal.value;
  const subset = queryRows.value;
  const scores = r?.scores ?? null;
  // The points are drawn from the scores alone; the observations and the selection go on the overlay,
  // so a click that toggles an observation redraws only the overlay until the new scores arrive.
  const judged = useMemo(
    () => scores && judgedVsEpisteme({ scores, labels: y, subset }, envelope.value),
    [scores, y, subset, envelope.value],
  );
  const alea = useMemo(() => scores && aleaVsEpisteme({ scores, labels: y, subset }), [scores, y, subset]);
  // Before a concept exists every measure is the prior's, the same everywhere: nothing to colour by.
  const measure = colorBy === 'concept' || !scores || !y ? null : MEASURE_COLUMNS.find((c) => c.key === colorBy);
  // Coloured by the concept, the map (PCA coordinates, computed once per dataset) does not follow the scores.
  const mapValues = measure ? scores![measure.key] : null;
  const mapSpec = useMemo(
    () =>
      m &&
      embeddingMap({
        x: m.x,
        y: m.y,
        explained: m.explained,
        totalVariance: m.totalVariance,
        values: mapValues,
        valueLabel: measure?.label ?? '',
        valueRange: measure?.range ?? null,
        labels: y,
        subset,
      }),
    [m, mapValues, measure, y, subset],
  );
  const judgedOverlay = useMemo(
    () =>
      scores
        ? [
            ...observationSymbols(y, obs, scores.episteme, scores.judgedProbability),
            ...selectionRing(scores.episteme, scores.judgedProbability, sel),
          ]
        : [],
    [scores, y, obs, sel],
  );
  const aleaOverlay = useMemo(
    () =>
      scores
        ? [
            ...observationSymbols(y, obs, scores.episteme, scores.alea),
            ...selectionRing(scores.episteme, scores.alea, sel),
          ]
        : [],
    [scores, y, obs, sel],
  );
  const mapOverlay = useMemo(
    () => (m ? [...mapObservations(m.x, m.y, y, obs), ...selectionRing(m.x, m.y, sel, 9)] : []),
    [m, y, obs, sel],
  );
  const belief = queryBelief.value;
  const beliefSpec = useMemo(
    () =>
      belief && sel !== null
        ? queryBeliefPlot(DENSITY_GRID, belief.posterior, belief.prior, `Belief g(a) of row ${sel}`)
        : null,
    [belief, sel],
  );
  return { mapSpec, judged, alea, beliefSpec, mapOverlay, judgedOverlay, aleaOverlay, tooltip: useTooltip() };
}

/** The map's colour choice (concept or a measure). */
export function ColorBySelect() {
  return (
    <select
      aria-label="Colour the map by"
      value={colorBySignal.value}
      onChange={(e) => {
        const value = (e.target as HTMLSelectElement).value;
        colorBySignal.value = COLOR_BY.find((c) => c === value) ?? 'judgedProbability';
      }}
    >
      <option value="concept">concept</option>
      {MEASURE_COLUMNS.map((c) => (
        <option value={c.key}>{c.label}</option>
      ))}
    </select>
  );
}

export function ProbeView() {
  const d = dataset.value;
  const r = results.value;
  const y = labels.value;
  const obs = session.value.observations;
  const sel = selected.value;
  const [picking, setPicking] = useState(false);
  const observationSet = useMemo(() => new Set(obs), [obs]);
  const subset = queryRows.value;
  const { mapSpec, judged, alea, beliefSpec, mapOverlay, judgedOverlay, aleaOverlay, tooltip } = useProbePlots();

  if (!d)
    return (
      <div class="empty-state">
        Load embeddings to begin: drop files anywhere on the page or use “Upload embeddings”.
      </div>
    );
  const pick = (row: number | null, event: MouseEvent) => {
    if (row === null) return;
    if (picking || event.shiftKey) toggleObservation(row);
    else selected.value = row;
  };
  // The same by keyboard: the arrow keys move the selected query, Enter adds or removes it as an observation.
  const keyboard = {
    selected: sel,
    onSelect: (row: number) => {
      selected.value = row;
    },
    onActivate: toggleObservation,
    help: 'Arrow keys: select the nearest query that way. Enter: add the selected query as an observation, or remove it.',
  };
  return (
    <div class="probe-view">
      {r && (
        <p
          class={`run-summary ${resultsStale.value ? 'stale' : ''}`}
          data-testid="run-summary"
          data-full-passes={r.fullPasses}
        >
          {resultsStale.value ? 'Settings changed since this run · ' : ''}
          {r.scores.judgedProbability.length.toLocaleString()} rows scored in {(r.seconds * 1000).toFixed(0)} ms (
          {r.space} space,{' '}
          {r.update.kind === 'fit'
            ? 'fitted'
            : `updated: +${r.update.added} −${r.update.removed} observations, ${r.fullPasses === 0 ? 'every score by a rank-one update' : 'scored again in full'}`}
          ){subset ? ` · showing the ${subset.length.toLocaleString()} queries of the subset` : ''}
        </p>
      )}
      <VerdictPanel />
      <div class="plot-grid">
        <PlotView
          spec={mapSpec}
          overlay={mapOverlay}
          height={340}
          tooltip={tooltip}
          thumbnail={thumbnailOf(48)}
          onPick={pick}
          keyboard={keyboard}
          empty="computing the map…"
          testId="map-plot"
          controls={
            <>
              <ColorBySelect />
              <label class="toggle">
                <input
                  type="checkbox"
                  checked={picking}
                  onChange={(e) => setPicking((e.target as HTMLInputElement).checked)}
                />{' '}
                pick observations
              </label>
            </>
          }
        />
        <PlotView
          spec={judged}
          overlay={judgedOverlay}
          height={340}
          tooltip={tooltip}
          thumbnail={thumbnailOf(48)}
          onPick={pick}
          keyboard={keyboard}
          empty="run the probe to see results"
          testId="judged-plot"
          caption="Shaded: more certain than any belief of this prior could be with so little knowledge (the irrational region of Fox & Ülkümen). Click a point to select it; shift-click adds or removes an observation."
        />
        <PlotView
          spec={alea}
          overlay={aleaOverlay}
          height={300}
          tooltip={tooltip}
          thumbnail={thumbnailOf(48)}
          onPick={pick}
          keyboard={keyboard}
          empty="run the probe to see results"
          testId="alea-plot"
          caption="Alea: how fuzzy the concept is at the query; episteme: how much the probe knows there."
        />
        <div class="card selection-card">
          {beliefSpec ? <PlotView spec={beliefSpec} height={190} testId="belief-plot" /> : null}
          <SelectedQuery />
          <CertifyPanel />
          <DimensionsPanel />
        </div>
      </div>
      <ResultsTable
        scores={r?.scores ?? null}
        columns={columns.value}
        rows={d.rows}
        subset={subset}
        labels={y}
        observations={observationSet}
        selected={sel}
        onSelect={(row) => {
          selected.value = row;
        }}
        onToggleObservation={toggleObservation}
        thumbnail={thumbnailOf(22)}
      />
    </div>
  );
}
