// The numbers behind a curves plot: one row per observation count, one column per method, mean ± sd
// over trials as the core returned them (full precision in data-value/data-sd and in the CSV export).
import type { ExperimentResult } from '../../../engine/evaluation/experiments.ts';
import { methodStyle } from '../plots/methods.ts';

export function CurveTable({ result, testId }: { result: ExperimentResult; testId?: string }) {
  const { curves, observationCounts } = result;
  return (
    <table class="curve-table" data-testid={testId}>
      <thead>
        <tr>
          <th class="num" scope="col">O</th>
          {curves.map((c) => <th class="num" scope="col" data-method={c.method}>{methodStyle(c.method).label}</th>)}
        </tr>
      </thead>
      <tbody>
        {observationCounts.map((o, j) => {
          // The highest mean of the row is shown in bold (a comparison for reading, not a new number); a
          // method that did not run at this O (NaN: GPC above its limit) shows a dash.
          const best = Math.max(...curves.map((c) => c.mean[j]).filter(Number.isFinite));
          return (
            <tr>
              <th class="num" scope="row">{o}</th>
              {curves.map((c) => (
                Number.isNaN(c.mean[j]) ? <td class="num" data-method={c.method} data-observations={o} title="not run at this O">—</td> : (
                  <td class={`num ${c.mean[j] === best ? 'best' : ''}`} data-method={c.method} data-observations={o}
                    data-value={String(c.mean[j])} data-sd={String(c.sd[j])}>
                    {c.mean[j].toFixed(3)}{result.trials > 1 ? <span class="sd"> ± {c.sd[j].toFixed(3)}</span> : null}
                  </td>
                )
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
