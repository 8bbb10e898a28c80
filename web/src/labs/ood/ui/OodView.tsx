// Out-of-distribution detection: say which queries are in-distribution (a metadata column, or a second
// uploaded file as the OOD set), compare the probe's OOD score (−latent variance) between them, and set
// it beside the baselines (MSP, Mahalanobis, kNN, LPE) fitted on the same observations.
import { useMemo, useRef } from 'preact/hooks';
import { scoreHistograms } from '../plots/histogram_plot.ts';
import type { OodSplit } from '../../../common/state/ood_split.ts';
import { currentSplit } from '../state/ood_baselines_store.ts';
import { distinctValues } from '../../../common/state/session.ts';
import { ValuePicker } from '../../../common/ui/ValuePicker.tsx';
import {
  columns,
  commit,
  dataLoading,
  dataset,
  oodDataset,
  type ProbeResults,
  results,
  session,
} from '../../../common/state/session_store.ts';
import { OodAurocTable, OodRocPlot } from './OodComparison.tsx';
import { PlotView } from '../../../common/ui/PlotView.tsx';

/** The probe's OOD scores of the in- and out-of-distribution queries. */
function oodGroups(
  r: ProbeResults | null,
  split: OodSplit | null,
): { inside: Float64Array; outside: Float64Array } | null {
  if (!r || !split) return null;
  const score = r.scores.oodScore;
  const inside = Float64Array.from(split.inside, (i) => score[i]);
  if (split.outside.kind === 'rows') return { inside, outside: Float64Array.from(split.outside.rows, (i) => score[i]) };
  return r.oodScores ? { inside, outside: r.oodScores.oodScore } : null;
}

export function OodView() {
  const s = session.value;
  const cols = columns.value;
  const fileInput = useRef<HTMLInputElement>(null);
  const split = currentSplit.value;
  const groups = useMemo(() => oodGroups(results.value, split), [results.value, split]);
  const histogram = useMemo(
    () =>
      groups && groups.inside.length && groups.outside.length
        ? scoreHistograms(groups.inside, groups.outside, 'OOD score (−latent variance)')
        : null,
    [groups],
  );
  const oodColumn =
    s.ood.kind === 'column' ? cols.find((c) => c.name === (s.ood as { column: string }).column) : undefined;
  return (
    <div class="ood-view">
      <section class="card ood-setup">
        <h2>Which queries are in-distribution?</h2>
        <div class="row">
          <label class="field">
            <span>By a metadata column</span>
            <select
              aria-label="In-distribution column"
              value={s.ood.kind === 'column' ? s.ood.column : ''}
              onChange={(e) => {
                const name = (e.target as HTMLSelectElement).value;
                const c = cols.find((x) => x.name === name);
                commit({
                  ...s,
                  ood: c
                    ? { kind: 'column', column: name, inDistribution: [distinctValues(c, 1)[0]] }
                    : { kind: 'none' },
                });
              }}
            >
              <option value="">—</option>
              {cols.map((c) => (
                <option value={c.name}>{c.name}</option>
              ))}
            </select>
          </label>
          <span class="or">or</span>
          <div class="field">
            <span>A second file as the OOD set</span>
            <div class="row">
              <button type="button" onClick={() => fileInput.current?.click()}>
                Upload OOD set
              </button>
              {oodDataset.value && (
                <button type="button" class="link" onClick={() => void dataLoading().clearOod()}>
                  remove {oodDataset.value.name}
                </button>
              )}
            </div>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              aria-label="Upload OOD set"
              onChange={(e) => {
                const f = Array.from((e.target as HTMLInputElement).files ?? []);
                (e.target as HTMLInputElement).value = '';
                void dataLoading().uploadFiles(f, 'ood');
              }}
            />
          </div>
        </div>
        {s.ood.kind === 'column' && oodColumn && (
          <ValuePicker
            column={oodColumn}
            selected={s.ood.inDistribution}
            label="In-distribution values"
            onChange={(inDistribution) =>
              commit({ ...s, ood: { ...(s.ood as { kind: 'column'; column: string }), inDistribution } })
            }
          />
        )}
        {s.ood.kind === 'file' && oodDataset.value && (
          <p class="hint">
            The {oodDataset.value.rows.toLocaleString()} rows of {oodDataset.value.name} are out-of-distribution; the
            rows of {dataset.value?.name} are in-distribution.
          </p>
        )}
        {split && (
          <p class="hint" data-testid="ood-split">
            Compared:{' '}
            {split.outside.kind === 'rows'
              ? `the ${split.inside.length.toLocaleString()} in-distribution query rows against the ${split.outside.rows.length.toLocaleString()} out-of-distribution ones`
              : `the ${split.inside.length.toLocaleString()} query rows against the ${(oodDataset.value?.rows ?? 0).toLocaleString()} OOD rows`}{' '}
            (query rows: the query subset without the observations).
          </p>
        )}
      </section>
      <div class="plot-grid">
        <PlotView
          spec={histogram}
          height={320}
          empty="Choose in-distribution queries above (both groups must be non-empty)."
          testId="ood-histogram"
          caption="The probe's OOD score of each query: in-distribution queries should sit to the right of the OOD rows."
        />
        <OodRocPlot />
      </div>
      <OodAurocTable />
    </div>
  );
}
