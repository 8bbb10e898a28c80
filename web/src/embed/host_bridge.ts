// The embedded app's side of a <gpprobe-probe> element (messages.ts): when the page is the element's
// iframe (its URL names the element), it asks the parent for its config (the origins the host page
// allows data from) before loading anything, applies changed attributes, and posts the probe's
// numbers after each run and the selected query on each selection — only to the parent window, at
// the origin that answered. A plain iframe or a top-level page has no parent to talk to: nothing is
// posted, and data from other sites needs the reader's confirmation.
import { failureHelp } from './failure_help.ts';
import { effect, signal, untracked } from '@preact/signals';
import { SCORE_COLUMNS } from '../engine/probe/probe_engine.ts';
import { openTarget } from '../app/data_actions.ts';
import { notify, report } from '../common/state/engine_tasks.ts';
import { linkUrl } from '../app/link_actions.ts';
import { paramsLink } from '../app/link_params.ts';
import { allowOrigins } from '../common/state/prompts.ts';
import { cellText, type Session } from '../common/state/session.ts';
import {
  columns,
  commit,
  dataset,
  labels,
  opening,
  queryRows,
  results,
  resultsStale,
  selected,
  session,
} from '../common/state/session_store.ts';
import { draw } from '../labs/probe/state/probe_store.ts';
import { showView } from '../app/view_state.ts';
import { MESSAGE_LIMITS, readToApp, type ResultsDetail, type SelectDetail, type ToHost } from './messages.ts';

/** How long the app waits for the element's config before it goes on without. */
const CONFIG_WAIT_MS = 3000;

let host: { origin: string; element: string } | null = null;

/** Why the embed's data could not be shown, once it failed (EmbedApp shows it in place of a dataset). */
export const embedFailure = signal<string | null>(null);

/**
 * The embed's data failed: nothing else is shown (never the demo), and the element hears why, by a
 * "gpprobe-error" event (issue 24, item 3).
 */
export function reportLinkFailure(reason: string): void {
  embedFailure.value = reason;
  const message = reason.length > MESSAGE_LIMITS.text ? `${reason.slice(0, MESSAGE_LIMITS.text - 1)}…` : reason;
  if (host) post({ gpprobe: 'error', element: host.element, detail: { message, help: failureHelp(reason) } });
}

function post(message: ToHost): void {
  if (host) window.parent.postMessage(message, host.origin);
}

/** Applies changed attributes: new data is opened; other settings change the session in place. */
async function applyParams(params: string): Promise<void> {
  const parsed = paramsLink(new URLSearchParams(params), document.baseURI);
  if (!parsed) return;
  // A value out of its range (or a broken URL) refuses the whole change: the embed keeps its state and
  // goes on posting its results (issue 40, item 4), as a refused link keeps the saved session.
  if (parsed.problems.length) {
    notify('error', `This change was not applied: ${parsed.problems.join('; ')}.`);
    return;
  }
  if (parsed.notes.length) notify('info', `This change was read in part: ${parsed.notes.join('; ')}.`);
  const target = parsed.link;
  const data = target.session.data;
  if (data && JSON.stringify(data) !== JSON.stringify(session.value.data)) {
    await openTarget(target);
    return;
  }
  const next: Session = { ...session.value, ...target.session, data: session.value.data };
  commit(next);
  const redraw = target.drawn && (target.session.draw !== undefined || target.session.concept !== undefined);
  if (redraw) await draw(next.draw.perClass, next.draw.seed);
  showView(target.view.tab, target.view.colorBy);
  if (target.view.selected !== undefined) selected.value = target.view.selected;
}

function resultsDetail(): ResultsDetail | null {
  const r = results.value,
    d = dataset.value;
  if (!r || !d || resultsStale.value) return null;
  const s = session.value,
    y = labels.value,
    subset = queryRows.value;
  return {
    rows: d.rows,
    queryRows: subset ? Array.from(subset) : null,
    observations: s.observations,
    observationLabels: s.observations.map((row) => (y ? y[row] : 0)),
    concept: s.concept,
    epsilon: s.epsilon,
    strength: s.strength,
    scores: r.scores,
    link: untracked(() => linkUrl()),
  };
}

function selectDetail(row: number): SelectDetail {
  const r = results.value,
    y = labels.value;
  const scores =
    r && row < r.scores.judgedProbability.length
      ? (Object.fromEntries(SCORE_COLUMNS.map((k) => [k, r.scores[k][row]])) as SelectDetail['scores'])
      : null;
  return {
    row,
    isObservation: session.value.observations.includes(row),
    label: y ? y[row] : null,
    scores,
    metadata: Object.fromEntries(columns.value.map((c) => [c.name, cellText(c, row)])),
  };
}

/**
 * Connects to the element that embeds this page, if any: resolves once its config arrived (or after
 * CONFIG_WAIT_MS), then keeps posting results and selections to it.
 */
export async function connectToHost(): Promise<void> {
  const element = new URLSearchParams(location.search).get('element');
  if (!element || window.parent === window) return;
  const configured = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONFIG_WAIT_MS);
    window.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (event.source !== window.parent) return;
      const m = readToApp(event.data, element);
      if (!m) {
        // Ours by its type and element, but malformed: the host page has a bug; say so, read nothing of it.
        const d = event.data as { gpprobe?: unknown; element?: unknown } | null;
        if (d && typeof d === 'object' && d.element === element && (d.gpprobe === 'config' || d.gpprobe === 'set')) {
          notify(
            'error',
            `The embedding page sent a malformed "${d.gpprobe}" message (see docs/embed.md, "Messages"); it was ignored.`,
          );
        }
        return;
      }
      if (m.gpprobe === 'config') {
        if (host) return; // one config per start
        host = { origin: event.origin, element };
        allowOrigins(m.allowOrigins);
        clearTimeout(timer);
        resolve();
      } else if (host && event.origin === host.origin) {
        void applyParams(m.params);
      }
    });
  });
  window.parent.postMessage({ gpprobe: 'hello', element } satisfies ToHost, '*');
  await configured;
  effect(() => {
    if (opening.value) return;
    const detail = resultsDetail();
    if (detail) post({ gpprobe: 'results', element, detail });
  });
  effect(() => {
    const row = selected.value;
    if (row !== null && !opening.value)
      untracked(() => post({ gpprobe: 'select', element, detail: selectDetail(row) }));
  });
}
