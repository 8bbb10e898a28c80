// The registry's page part: each lab's view and what the app shell shows beside it, from the labs' own
// ui/lab_view.ts (found by name). The tab strip is derived from labs/index.ts (tabsOf). Page bundle only
// (the worker never imports a component).
import { LABS, partsByLab, type LabId } from './index.ts';
import type { LabViewOf, LabViewPart } from './parts.ts';

export type { LabView, LabViewOf } from './parts.ts';

/**
 * Each lab's view, typed in the lab's own file (`LabViewOf<'compare'>` in labs/compare/ui/lab_view.ts);
 * partsByLab files each under its folder's id, and tests/web/lab_registry.test.ts holds each file to its
 * folder's lab.
 */
export const LAB_VIEWS = partsByLab(
  LABS,
  import.meta.glob<LabViewPart<LabId>>('./*/ui/lab_view.ts', { eager: true }),
  'ui/lab_view.ts',
  (part) => part.VIEW,
) as { readonly [L in LabId]: LabViewOf<L> };
