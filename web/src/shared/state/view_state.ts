// What the reader looks at, beside the session: the tab and what the map is coloured by. The
// selected query is store.ts's `selected`. Links carry all three (share_link.ts).
import { signal } from '@preact/signals';
import type { ProbeScores } from '../../engine/probe/probe_engine.ts';

const TABS = ['probe', 'ood', 'evaluate', 'regression', 'classification'] as const;
export type Tab = (typeof TABS)[number];

export type ColorBy = 'concept' | keyof ProbeScores;
export const COLOR_BY: readonly ColorBy[] = ['concept', 'judgedProbability', 'episteme', 'alea', 'knowledge', 'oodScore', 'latentMean', 'latentVariance'];

export const activeTab = signal<Tab>('probe');
export const colorBy = signal<ColorBy>('judgedProbability');

/** Sets the view from a link's words, ignoring what this build does not know. */
export function showView(tab: string | undefined, color: string | undefined): void {
  const t = TABS.find((x) => x === tab);
  if (t) activeTab.value = t;
  const c = COLOR_BY.find((x) => x === color);
  if (c) colorBy.value = c;
}
