// Choosing and running an experiment: what it measures, its settings (ε and s follow the session until
// changed here), Run, and while it runs a progress bar and Cancel.
import type { ExperimentKind } from '../../../engine/evaluation/experiments.ts';
import { CLASSIFICATION_DEFAULTS } from '../../../engine/vocabulary.ts';
import {
  activeRun,
  blocker,
  DEFAULT_SETTINGS,
  describeSetup,
  outcomes,
  runEvaluation,
  runTask,
  settings,
  settingsDraft,
  type SettingsDraft,
} from '../state/evaluation_store.ts';
import { TaskBar } from '../../../common/ui/TaskBar.tsx';

export const EXPERIMENTS: { kind: ExperimentKind; label: string; about: string }[] = [
  {
    kind: 'probing',
    label: 'Probing',
    about:
      'How well each probe tells queries that show the concept from those that do not (AUROC on held-out queries) as the number of labelled observations grows (paper Fig. 4). GPP ranks by its judged probability, LP and SVM by their decision values, LPE (an ensemble of LPs on bootstrap resamples) by its mean, and the GPC probes (GP classification, Laplace and EP, RBF kernel with learned hyperparameters) by p(y = 1).',
  },
  {
    kind: 'fuzzy',
    label: 'Fuzzy concepts',
    about:
      'Each positive observation keeps its label only with probability p ∈ {0.25, 0.5, 0.75, 1}, making the concept fuzzy (paper Figs 5–6). A probe that follows the fuzziness judges the originally positive queries near p; a rational one is not certain before it knows much.',
  },
  {
    kind: 'ood',
    label: 'Out-of-distribution',
    about:
      "How well each method's score tells held-out in-distribution queries from the OOD set (AUROC) as observations grow (paper Fig. 7). GPP: −latent variance; MSP: max(p, 1 − p) of the LP; Mahalanobis; kNN: −distance to the k-th nearest observation; LPE: −variance of its members.",
  },
];

const OBSERVATION_LIMITS = [8, 16, 32, 64, 128, 256, 512, 1024];

/** What the GP classification probes are, with the optimiser's budget the core uses (its vocabulary). */
export const GPC_HINT = `GP classification as two more probes: probit likelihood, RBF kernel on the embeddings, its signal variance and one length-scale learned on each step's observations by maximising the log marginal likelihood (Laplace: at most ${CLASSIFICATION_DEFAULTS.probeLaplaceIterations} L-BFGS iterations from the median distance between the observations; EP: at most ${CLASSIFICATION_DEFAULTS.probeEpIterations} from Laplace's optimum; no restarts). They rank queries by p(y = 1), up to the observation count chosen beside (their cost grows as O³: an EP evidence is 10–20 sweeps of about 4 O³ flops).`;

function NumberField({
  label,
  value,
  min,
  max,
  integer = true,
  onValue,
  hint,
}: {
  label: string;
  value: number;
  min: number;
  max?: number;
  integer?: boolean;
  onValue(v: number): void;
  hint?: string;
}) {
  return (
    <label class="field compact" title={hint}>
      <span>{label}</span>
      <input
        type="number"
        aria-label={label}
        value={value}
        min={min}
        max={max}
        step={integer ? 1 : 'any'}
        onChange={(e) => {
          const v = Number((e.target as HTMLInputElement).value);
          const ok =
            Number.isFinite(v) &&
            (integer ? Number.isInteger(v) && v >= min : v > min) &&
            (max === undefined || v <= max);
          // An invalid entry snaps back to the last valid value.
          if (ok) onValue(v);
          else (e.target as HTMLInputElement).value = String(value);
        }}
      />
    </label>
  );
}

export function ExperimentSetup({ kind }: { kind: ExperimentKind }) {
  const draft = settingsDraft.value,
    used = settings.value;
  const set = (patch: Partial<SettingsDraft>) => {
    settingsDraft.value = { ...draft, ...patch };
  };
  const run = activeRun.value,
    task = runTask.value;
  const reason = blocker(kind);
  const outcome = outcomes.value[kind];
  const about = EXPERIMENTS.find((e) => e.kind === kind)!.about;
  return (
    <section class="card eval-setup" aria-label="Experiment settings">
      <p class="eval-about">{about}</p>
      {!reason && <p class="hint eval-on">Runs on {describeSetup(kind)}.</p>}
      <div class="row eval-controls">
        <NumberField
          label="trials"
          value={draft.trials}
          min={1}
          max={1000}
          onValue={(trials) => set({ trials })}
          hint="Seeded repetitions; the plots show mean ± sd over them"
        />
        <NumberField label="seed" value={draft.seed} min={0} onValue={(seed) => set({ seed })} />
        <label class="field compact">
          <span>max observations</span>
          <select
            aria-label="max observations"
            value={draft.maxObservations}
            onChange={(e) => set({ maxObservations: Number((e.target as HTMLSelectElement).value) })}
          >
            {OBSERVATION_LIMITS.map((o) => (
              <option value={o}>{o}</option>
            ))}
          </select>
        </label>
        <NumberField
          label="max queries"
          value={draft.maxQueries}
          min={1}
          onValue={(maxQueries) => set({ maxQueries })}
          hint="At most this many queries (and OOD rows) per trial"
        />
        <NumberField
          label="LPE members"
          value={draft.members}
          min={1}
          max={1000}
          onValue={(members) => set({ members })}
        />
        {kind === 'probing' && (
          <label class="toggle eval-gpc" title={GPC_HINT}>
            <input
              type="checkbox"
              checked={draft.gpc}
              aria-label="GP classification probes"
              onChange={(e) => set({ gpc: e.currentTarget.checked })}
            />{' '}
            GPC probes (Laplace, EP)
          </label>
        )}
        {kind === 'probing' && draft.gpc && (
          <label
            class="field compact"
            title="GPC's cost grows as O³: on the demo a trial takes about 1 s up to O = 128, 4 s up to 256 and 35 s up to 512 (wasm, measured under load)"
          >
            <span>GPC up to O</span>
            <select
              aria-label="GPC up to O"
              value={draft.gpcMaxObservations}
              onChange={(e) => set({ gpcMaxObservations: Number((e.target as HTMLSelectElement).value) })}
            >
              {OBSERVATION_LIMITS.map((o) => (
                <option value={o}>{o}</option>
              ))}
            </select>
          </label>
        )}
        {kind === 'ood' && <NumberField label="k (kNN)" value={draft.k} min={1} onValue={(k) => set({ k })} />}
        <NumberField
          label="ε"
          value={used.epsilon}
          min={0}
          integer={false}
          onValue={(epsilon) => set({ epsilon })}
          hint="GPP prior Beta(ε, ε); follows the session until changed here"
        />
        <NumberField
          label="s"
          value={used.strength}
          min={0}
          integer={false}
          onValue={(strength) => set({ strength })}
          hint="GPP observation strength; follows the session until changed here"
        />
        {JSON.stringify(draft) !== JSON.stringify(DEFAULT_SETTINGS) && (
          <button
            type="button"
            class="link reset"
            onClick={() => {
              settingsDraft.value = DEFAULT_SETTINGS;
            }}
          >
            defaults
          </button>
        )}
      </div>
      <div class="row eval-run">
        <button
          type="button"
          class="primary"
          disabled={run !== null || reason !== null}
          onClick={() => void runEvaluation(kind)}
        >
          Run {EXPERIMENTS.find((e) => e.kind === kind)!.label.toLowerCase()}
        </button>
        {task && <TaskBar tasks={[task]} class="eval-progress" />}
        {!run && reason && <span class="hint">{reason}</span>}
      </div>
      {outcome && !run && (
        <p class={`eval-outcome ${outcome.kind}`} role="status" data-testid="evaluation-outcome">
          {outcome.text}
        </p>
      )}
    </section>
  );
}
