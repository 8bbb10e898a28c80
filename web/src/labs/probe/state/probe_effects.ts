// The probe lab following the session, started once the app has opened it (app/startup.ts): the probe
// runs again when what it depends on changes, and the views that follow the hyperparameters (the prior's
// belief, the irrational region) and the selected query's belief are refreshed through the worker.
import { computed, effect } from '@preact/signals';
import { report, request } from '../../../common/state/engine_tasks.ts';
import { dataset, opening, probeBasis, results, selected, session } from '../../../common/state/session_store.ts';
import { DENSITY_GRID } from '../plots/belief_plots.ts';
import { autoRun, envelope, preview, queryBelief, redrawing, runProbe } from './probe_store.ts';
import { applyDefaultGamma, dataScale, measureDataScale, probeCertifySettings } from './certify_store.ts';

function debounced(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

export function followSession(): void {
  // Re-run the probe when what it depends on changes (once a session being opened is complete): at once
  // when only the observations changed (the worker updates the kept scores by a rank-one change), after
  // 120 ms of quiet while the hyperparameter sliders move.
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hyperparameters = '';
  effect(() => {
    void probeBasis.value;
    const { epsilon, strength } = session.peek();
    const moved = JSON.stringify([epsilon, strength]) !== hyperparameters;
    hyperparameters = JSON.stringify([epsilon, strength]);
    if (!dataset.value || opening.value || redrawing.value) return;
    clearTimeout(timer);
    timer = setTimeout(
      () => {
        if (autoRun.value && !opening.value && !redrawing.value) void runProbe();
      },
      moved ? 120 : 0,
    );
  });
  // The data's scale, for the certify panel's default γ (measured once per dataset).
  effect(() => {
    const d = dataset.value;
    if (!d || opening.value) return;
    const name = `${d.name} ${d.rows}×${d.cols}`;
    if (dataScale.peek()?.dataset === name) return;
    measureDataScale(name, d.rows).then((scale) => {
      if (scale && dataset.peek() === d) {
        dataScale.value = scale;
        applyDefaultGamma();
      }
    }, report);
  });
  // The box and the ball have different defaults.
  const certifyNorm = computed(() => probeCertifySettings.value.norm);
  effect(() => {
    void certifyNorm.value;
    applyDefaultGamma();
  });
  // Hyperparameter views.
  const refreshPrior = debounced(60, () => {
    const { epsilon, strength } = session.value;
    request(null, { kind: 'belief-preview', epsilon, strength, grid: DENSITY_GRID }).then((p) => {
      preview.value = p;
    }, report);
    request(null, { kind: 'envelope', epsilon }).then((e) => {
      envelope.value = e;
    }, report);
  });
  // Only when ε or s change: the session signal also changes with every observation toggled, and a new
  // (equal) envelope would redraw the judged-probability plot a second time after each toggle.
  const prior = computed(() => `${session.value.epsilon} ${session.value.strength}`);
  effect(() => {
    void prior.value;
    refreshPrior();
  });
  // The selected query's belief.
  effect(() => {
    const r = results.value,
      row = selected.value;
    if (!r || row === null || row >= r.scores.latentMean.length) {
      queryBelief.value = null;
      return;
    }
    request(null, {
      kind: 'query-belief',
      mean: r.scores.latentMean[row],
      variance: r.scores.latentVariance[row],
      epsilon: session.value.epsilon,
      grid: DENSITY_GRID,
    }).then((b) => {
      queryBelief.value = b;
    }, report);
  });
}
