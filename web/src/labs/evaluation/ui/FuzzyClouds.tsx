// The fuzzy experiment's clouds (trial 0): for a chosen label probability p and observation count O,
// judged probability and alea against episteme for GPP beside LPE, with the irrational region shaded
// as in the Probe view. Where the paper's point shows: a rational probe is not certain before it knows.
import { signal } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import type { ExperimentCloud } from '../../../engine/evaluation/experiments.ts';
import { cloudPlot, type CloudMeasure } from '../plots/evaluation_plots.ts';
import { cellText } from '../../../common/state/session.ts';
import { columns } from '../../../common/state/session_store.ts';
import type { ExperimentRun } from '../worker/protocol.ts';
import { formatMeasure } from '../../../common/ui/format.ts';
import { PlotView } from '../../../common/ui/PlotView.tsx';

/** The chosen cloud, kept while the user visits other tabs. */
const chosen = signal<{ p: number; observations: number | null }>({ p: 0.5, observations: null });

const CAPTIONS: Record<CloudMeasure, string> = {
  judged:
    'Each point is an originally positive query of trial 0. Shaded: irrational, more certain than any belief of this prior can be with so little knowledge (as in the Probe view). A rational probe stays near ½ while its episteme is low and moves towards p (dashed) as it learns; points in the shaded band are confidently ignorant.',
  alea: 'Alea is the fuzziness a probe sees at the query: a coin with probability p has alea log 2 ≈ 0.69 at p = ½ (the top of the axis) and 0 at p = 1. A probe that follows the fuzzy concept predicts high alea once its episteme is high.',
};

function tooltipFor(cloud: ExperimentCloud) {
  const cols = columns.value;
  return (i: number): string[] => {
    const row = cloud.rows[i];
    return [
      `row ${row}${
        cols.length
          ? ` · ${cols
              .slice(0, 3)
              .map((c) => `${c.name}: ${cellText(c, row)}`)
              .join(' · ')}`
          : ''
      }`,
      `judged ${formatMeasure(cloud.judgedProbability[i])} · episteme ${formatMeasure(cloud.episteme[i])} · alea ${formatMeasure(cloud.alea[i])}`,
    ];
  };
}

export function FuzzyClouds({ run }: { run: ExperimentRun }) {
  const { clouds } = run.result;
  const counts = run.result.observationCounts;
  const probabilities = [...new Set(clouds.map((c) => c.labelProbability))].sort((a, b) => a - b);
  const p = probabilities.includes(chosen.value.p) ? chosen.value.p : probabilities[0];
  const wanted = chosen.value.observations;
  const observations =
    wanted !== null && counts.includes(wanted)
      ? wanted
      : counts.includes(16)
        ? 16
        : counts[Math.floor(counts.length / 2)];
  const find = (method: string) =>
    clouds.find((c) => c.method === method && c.labelProbability === p && c.observations === observations) ?? null;
  const gpp = find('gpp'),
    lpe = find('lpe');
  const specs = useMemo(() => {
    const input = (method: string, cloud: ExperimentCloud | null) => ({
      method,
      cloud,
      labelProbability: p,
      observations,
      envelope: run.envelope,
    });
    return {
      gppJudged: cloudPlot(input('gpp', gpp), 'judged'),
      lpeJudged: cloudPlot(input('lpe', lpe), 'judged'),
      gppAlea: cloudPlot(input('gpp', gpp), 'alea'),
      lpeAlea: cloudPlot(input('lpe', lpe), 'alea'),
    };
  }, [gpp, lpe, run.envelope]);
  const noLpe = `LPE has no cloud here: no positive observation kept its label at p = ${p}, O = ${observations}, so every LP member judges 0.`;
  return (
    <section class="card eval-clouds" aria-label="Fuzzy clouds">
      <header class="card-header">
        <h2>GPP vs LPE on a fuzzy concept (trial 0)</h2>
        <div class="card-actions">
          <label class="inline">
            label probability p{' '}
            <select
              aria-label="Cloud label probability"
              value={p}
              onChange={(e) => {
                chosen.value = { ...chosen.value, p: Number((e.target as HTMLSelectElement).value) };
              }}
            >
              {probabilities.map((v) => (
                <option value={v}>{v}</option>
              ))}
            </select>
          </label>
          <label class="inline">
            observations O{' '}
            <select
              aria-label="Cloud observations"
              value={observations}
              onChange={(e) => {
                chosen.value = { ...chosen.value, observations: Number((e.target as HTMLSelectElement).value) };
              }}
            >
              {counts.map((v) => (
                <option value={v}>{v}</option>
              ))}
            </select>
          </label>
        </div>
      </header>
      <div class="plot-grid">
        <PlotView
          spec={specs.gppJudged}
          height={300}
          tooltip={gpp ? tooltipFor(gpp) : undefined}
          testId="cloud-gpp-judged"
        />
        <PlotView
          spec={specs.lpeJudged}
          height={300}
          tooltip={lpe ? tooltipFor(lpe) : undefined}
          testId="cloud-lpe-judged"
          empty={noLpe}
        />
        <p class="caption wide">{CAPTIONS.judged}</p>
        <PlotView
          spec={specs.gppAlea}
          height={260}
          tooltip={gpp ? tooltipFor(gpp) : undefined}
          testId="cloud-gpp-alea"
        />
        <PlotView
          spec={specs.lpeAlea}
          height={260}
          tooltip={lpe ? tooltipFor(lpe) : undefined}
          testId="cloud-lpe-alea"
          empty={noLpe}
        />
        <p class="caption wide">{CAPTIONS.alea}</p>
      </div>
    </section>
  );
}
