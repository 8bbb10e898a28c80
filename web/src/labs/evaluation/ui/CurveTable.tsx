// The numbers behind a curves plot: one row per observation count, one column per method, mean ± sd
// over trials as the core returned them (full precision in data-value/data-sd and in the CSV export).
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ExperimentResult } from '../../../engine/evaluation/experiments.ts';
import { methodStyle } from '../../../common/plots/methods.ts';

/** What the table shows that needs saying: a GPC probe at exactly 0.5 with no spread (O = 2: the evidence
 * unrelates the two observations) and the dashes where GPC was not run (above "GPC up to O"). */
export function tableNotes(result: ExperimentResult): string[] {
  const notes: string[] = [];
  const gpc = result.curves.filter((c) => c.method.startsWith('gpc'));
  const flat = result.observationCounts.filter((_, j) => gpc.some((c) => c.mean[j] === 0.5 && c.sd[j] === 0));
  if (flat.length > 0) {
    notes.push(
      `GPC at 0.500 ± 0.000 (O = ${flat.join(', ')}): with so few observations the evidence prefers a length-scale far below ` +
        'the distance between them, so they are unrelated (the best account of opposite labels), every query gets p = ½ and the AUROC is 0.5 in every trial.',
    );
  }
  const skipped = result.observationCounts.filter((_, j) => gpc.some((c) => Number.isNaN(c.mean[j])));
  if (skipped.length > 0) {
    notes.push(
      `—: GPC was not run at O = ${skipped.join(', ')}, above the setting "GPC up to O" (its cost grows as O³; 512 takes about 35 s a trial).`,
    );
  }
  return notes;
}

/** "Scroll sideways for every column" while the table is wider than its card (a phone). */
export function useScrollsSideways(): [preact.RefObject<HTMLDivElement>, boolean] {
  const box = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const measure = () => setScrolls(!!box.current && box.current.scrollWidth > box.current.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    if (box.current) observer.observe(box.current);
    return () => observer.disconnect();
  }, []);
  return [box, scrolls];
}

export function CurveTable({ result, testId }: { result: ExperimentResult; testId?: string }) {
  const { curves, observationCounts } = result;
  return (
    <table class="curve-table" data-testid={testId}>
      <thead>
        <tr>
          <th class="num" scope="col">
            O
          </th>
          {curves.map((c) => (
            <th class="num" scope="col" data-method={c.method}>
              {methodStyle(c.method).label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {observationCounts.map((o, j) => {
          // The highest mean of the row is shown in bold (a comparison for reading, not a new number); a
          // method that did not run at this O (NaN: GPC above its limit) shows a dash.
          const best = Math.max(...curves.map((c) => c.mean[j]).filter(Number.isFinite));
          return (
            <tr>
              <th class="num" scope="row">
                {o}
              </th>
              {curves.map((c) =>
                Number.isNaN(c.mean[j]) ? (
                  <td class="num" data-method={c.method} data-observations={o} title="not run at this O">
                    —
                  </td>
                ) : (
                  <td
                    class={`num ${c.mean[j] === best ? 'best' : ''}`}
                    data-method={c.method}
                    data-observations={o}
                    data-value={String(c.mean[j])}
                    data-sd={String(c.sd[j])}
                  >
                    {c.mean[j].toFixed(3)}
                    {result.trials > 1 ? <span class="sd"> ± {c.sd[j].toFixed(3)}</span> : null}
                  </td>
                ),
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
