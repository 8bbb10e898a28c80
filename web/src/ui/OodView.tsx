// Out-of-distribution detection: say which queries are in-distribution (a metadata column, or a second
// uploaded file as the OOD set) and compare the probe's OOD score (−latent variance) between them.
import { useMemo, useRef } from 'preact/hooks';
import { scoreHistograms } from '../plots/histogram_plot.ts';
import { distinctValues, inDistributionMask } from '../state/session.ts';
import { clearOod, columns, commit, dataset, oodDataset, results, session, uploadFiles } from '../state/store.ts';
import { PlotView } from './PlotView.tsx';

/** OOD scores of in-distribution and out-of-distribution queries under the current setup. */
export function oodGroups(): { inside: Float64Array; outside: Float64Array } | null {
  const r = results.value, d = dataset.value, s = session.value;
  if (!r || !d) return null;
  if (s.ood.kind === 'file' && r.oodScores) return { inside: r.scores.oodScore, outside: r.oodScores.oodScore };
  const mask = inDistributionMask(s.ood, d.columns, d.rows);
  if (!mask) return null;
  const inside: number[] = [], outside: number[] = [];
  mask.forEach((m, i) => (m ? inside : outside).push(r.scores.oodScore[i]));
  return { inside: Float64Array.from(inside), outside: Float64Array.from(outside) };
}

export function OodView() {
  const s = session.value;
  const cols = columns.value;
  const fileInput = useRef<HTMLInputElement>(null);
  const groups = useMemo(oodGroups, [results.value, s.ood, dataset.value]);
  const histogram = useMemo(() => groups && groups.inside.length && groups.outside.length
    ? scoreHistograms(groups.inside, groups.outside, 'OOD score (−latent variance)') : null, [groups]);
  const oodColumn = s.ood.kind === 'column' ? cols.find((c) => c.name === (s.ood as { column: string }).column) : undefined;
  return (
    <div class="ood-view">
      <section class="card ood-setup">
        <h2>Which queries are in-distribution?</h2>
        <div class="row">
          <label class="field">
            <span>By a metadata column</span>
            <select aria-label="In-distribution column" value={s.ood.kind === 'column' ? s.ood.column : ''}
              onChange={(e) => {
                const name = (e.target as HTMLSelectElement).value;
                const c = cols.find((x) => x.name === name);
                commit({ ...s, ood: c ? { kind: 'column', column: name, inDistribution: [distinctValues(c, 1)[0]] } : { kind: 'none' } });
              }}>
              <option value="">—</option>
              {cols.map((c) => <option value={c.name}>{c.name}</option>)}
            </select>
          </label>
          <span class="or">or</span>
          <div class="field">
            <span>A second file as the OOD set</span>
            <div class="row">
              <button type="button" onClick={() => fileInput.current?.click()}>Upload OOD set</button>
              {oodDataset.value && <button type="button" class="link" onClick={() => void clearOod()}>remove {oodDataset.value.name}</button>}
            </div>
            <input ref={fileInput} type="file" multiple hidden aria-label="Upload OOD set"
              onChange={(e) => { const f = Array.from((e.target as HTMLInputElement).files ?? []); (e.target as HTMLInputElement).value = ''; void uploadFiles(f, 'ood'); }} />
          </div>
        </div>
        {s.ood.kind === 'column' && oodColumn && (
          <div class="chips" role="group" aria-label="In-distribution values">
            {distinctValues(oodColumn, 60).map((v) => {
              const on = (s.ood as { inDistribution: string[] }).inDistribution.includes(v);
              return (
                <button type="button" class={`chip ${on ? 'on' : ''}`} aria-pressed={on}
                  onClick={() => {
                    const ood = s.ood as { kind: 'column'; column: string; inDistribution: string[] };
                    commit({ ...s, ood: { ...ood, inDistribution: on ? ood.inDistribution.filter((x) => x !== v) : [...ood.inDistribution, v] } });
                  }}>{v}</button>
              );
            })}
          </div>
        )}
        {s.ood.kind === 'file' && oodDataset.value && (
          <p class="hint">The {oodDataset.value.rows.toLocaleString()} rows of {oodDataset.value.name} are out-of-distribution; every row of {dataset.value?.name} is in-distribution.</p>
        )}
      </section>
      <div class="plot-grid">
        <PlotView spec={histogram} height={320} empty="Choose in-distribution queries above (both groups must be non-empty)." testId="ood-histogram" />
      </div>
    </div>
  );
}
