// The evaluation lab: the GPP paper's experiments (probing, fuzzy concepts, OOD detection) on the loaded
// dataset and the current concept, run in the engine worker with progress and cancel. Results stay when
// the user switches tabs and are marked stale when the data they were computed on changes.
import { activeRun, experimentKind, records } from '../state/evaluation_store.ts';
import { dataset } from '../../../common/state/session_store.ts';
import { CurveResults } from './CurveResults.tsx';
import { EXPERIMENTS, ExperimentSetup } from './ExperimentSetup.tsx';
import { FuzzyClouds } from './FuzzyClouds.tsx';
import './evaluation.css';

export function EvaluationView() {
  const kind = experimentKind.value;
  const record = records.value[kind];
  if (!dataset.value)
    return (
      <div class="empty-state">
        Load embeddings to begin: the experiments run on the loaded dataset and the current concept.
      </div>
    );
  return (
    <div class="evaluation-view">
      <div class="segmented" role="group" aria-label="Experiment">
        {EXPERIMENTS.map((e) => (
          <button
            type="button"
            aria-pressed={kind === e.kind}
            class={kind === e.kind ? 'on' : ''}
            onClick={() => {
              experimentKind.value = e.kind;
            }}
          >
            {e.label}
            {records.value[e.kind] ? (
              <span class="done" aria-label="has results">
                {' '}
                ✓
              </span>
            ) : null}
            {activeRun.value?.experiment === e.kind ? (
              <span class="busy" aria-label="running">
                {' '}
                …
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <ExperimentSetup kind={kind} />
      {record ? (
        <>
          <CurveResults kind={kind} record={record} />
          {kind === 'fuzzy' && <FuzzyClouds run={record.run} />}
        </>
      ) : (
        <p class="empty-state eval-empty">
          {activeRun.value?.experiment === kind
            ? 'Running: the results appear here when every trial is done.'
            : 'No results yet: press Run. With the defaults this takes seconds on the demo.'}
        </p>
      )}
    </div>
  );
}
