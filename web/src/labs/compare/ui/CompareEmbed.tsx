// The Compare lab in an embed (?embed=1&views=profile,grid, the <gpprobe-probe> element's views): the
// layer profile or the concept × representation grid of the comparison the link carries (opened and run
// by link_actions.ts), with its sentence. Nothing to set here: the link says what is compared.
import { useMemo } from 'preact/hooks';
import { profilePlot } from '../plots/profile_plot.ts';
import { activeRun, outcome, record, representations, shownConcept } from '../state/compare_store.ts';
import { ConceptGrid } from './ConceptGrid.tsx';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import './compare.css';

export function CompareEmbed({ view, height }: { view: 'profile' | 'grid'; height: number }) {
  const r = record.value;
  const comparison = r?.run.comparison ?? null;
  const index = comparison ? Math.min(shownConcept.value, comparison.concepts.length - 1) : 0;
  const concept = comparison?.concepts[index] ?? null;
  const spec = useMemo(() => (comparison && concept ? profilePlot(comparison, concept) : null), [comparison, concept]);
  if (!comparison || !concept) {
    const text =
      outcome.value?.text ??
      (activeRun.value !== null
        ? 'comparing…'
        : representations.value.length
          ? 'no comparison yet'
          : 'This link carries no comparison (add compare=URL … or compare=layers-demo).');
    return (
      <p class="empty-state" data-testid="compare-embed-empty">
        {text}
      </p>
    );
  }
  return (
    <div class="compare-embed" data-testid={`compare-embed-${view}`}>
      <p class="compare-sentence compact">
        {comparison.concepts.length > 1 && <strong>{concept.concept}: </strong>}
        <span data-testid="compare-sentence">{concept.sentence}</span>
      </p>
      {view === 'profile' ? (
        <PlotView spec={spec} height={Math.max(120, height - 70)} testId="compare-profile" />
      ) : comparison.concepts.length > 1 ? (
        <ConceptGrid comparison={comparison} />
      ) : (
        <p class="hint">The grid needs several concepts: compare every value of a column (compare-concepts=column).</p>
      )}
    </div>
  );
}
