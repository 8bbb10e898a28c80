// A one-file page's session (its data block's "state", docs/embed.md "One file"): a link's JSON of
// version 1 (app/share_link.ts) holding only what the session says, never its data (the page's data are
// its files), read back with the link's schema. Pure functions.
import { migrate, type LinkTarget } from '../app/share_link.ts';

/** The state of `target`: the fields it sets; "rows" only when the observations are not the draw's. */
export function stateJson(target: LinkTarget): Record<string, unknown> {
  const s = target.session;
  const json: Record<string, unknown> = { v: 1 };
  for (const key of ['concept', 'draw', 'epsilon', 'strength', 'ood', 'queries'] as const)
    if (s[key] !== undefined) json[key] = s[key];
  if (!target.drawn) json.rows = s.observations ?? [];
  if (target.view.tab !== undefined) json.tab = target.view.tab;
  if (target.view.colorBy !== undefined) json.colorBy = target.view.colorBy;
  if (target.view.selected !== undefined && target.view.selected !== null) json.selected = target.view.selected;
  return json;
}

const SESSION_KEYS = ['concept', 'draw', 'epsilon', 'strength', 'ood', 'queries'] as const;
const VIEW_KEYS = ['tab', 'colorBy', 'selected'] as const;

/**
 * The target a state opens: held to the link's schema (a SchemaError naming the field otherwise), with
 * only the fields the state has, so the rest take the data's defaults as an upload's do. Its "data" is
 * left out: the page's data are its files.
 */
export function targetOfState(state: Record<string, unknown>): LinkTarget {
  const { data: _data, ...rest } = state;
  const full = migrate(rest);
  const session: LinkTarget['session'] = {};
  for (const key of SESSION_KEYS) if (rest[key] !== undefined) Object.assign(session, { [key]: full.session[key] });
  if (rest.rows !== undefined) session.observations = full.session.observations;
  const view: LinkTarget['view'] = {};
  for (const key of VIEW_KEYS) if (rest[key] !== undefined) Object.assign(view, { [key]: full.view[key] });
  return { session, drawn: full.drawn, view };
}
