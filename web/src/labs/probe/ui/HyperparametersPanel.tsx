// ε and s with live plots of what they imply: the prior of g(a) (exact Beta(ε, ε) beside the GP's
// logit-normal) and the belief after one negative, or one positive and one negative, observation at
// the same point (paper Figs 9-11), so a user can choose them by looking.
import { useMemo } from 'preact/hooks';
import { beliefPreview, DENSITY_GRID } from '../plots/belief_plots.ts';
import { session } from '../../../common/state/session_store.ts';
import { preview, setHyperparameters } from '../state/probe_store.ts';
import { LogScaleField } from '../../../common/ui/LogScaleField.tsx';
import { PlotView } from '../../../common/ui/PlotView.tsx';
import { prompt } from '../../../common/state/prompts.ts';

const betaParameter = (v: number) => String(Number(v.toPrecision(4)));

export function HyperparametersPanel() {
  const { epsilon, strength } = session.value;
  const p = preview.value;
  // Each curve's Beta parameters are the core's (belief_densities.h), labelled as it gives them.
  const specs = useMemo(
    () =>
      p &&
      (
        [
          [p.prior, 'Prior of g(a)'],
          [p.oneNegative, 'After one negative observation'],
          [p.onePositiveOneNegative, 'After one positive and one negative'],
        ] as const
      ).map(([c, title]) =>
        beliefPreview(
          DENSITY_GRID,
          c.beta,
          c.approximation,
          title,
          `Beta(${betaParameter(c.belief.betaA)}, ${betaParameter(c.belief.betaB)})`,
        ),
      ),
    [p],
  );
  return (
    <section class="panel" aria-labelledby="hyper-heading">
      <h3 id="hyper-heading">Hyperparameters</h3>
      <LogScaleField
        heading="ε (prior Beta(ε, ε))"
        name="epsilon"
        value={epsilon}
        min={0.01}
        max={10}
        onChange={(v) => setHyperparameters(v, strength)}
      />
      <LogScaleField
        heading="s (observation strength)"
        name="strength"
        value={strength}
        min={0.1}
        max={100}
        onChange={(v) => setHyperparameters(epsilon, v)}
      />
      <p class="hint">
        ε &lt; 1: the concept is believed crisp (mass near 0 and 1); ε = 1: uniform; ε &gt; 1: fuzzy. Larger s: each
        observation counts more.
      </p>
      <div class="previews">
        {/* Behind a question (which embedding?) nothing is computed until it is answered: say nothing then. */}
        {specs ? (
          specs.map((spec) => <PlotView spec={spec} height={150} />)
        ) : prompt.value ? null : (
          <p class="hint">computing…</p>
        )}
      </div>
    </section>
  );
}
