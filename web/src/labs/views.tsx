// The registry's page part: each lab's view and what the app shell shows beside it. The tab strip is
// derived from it and labs/index.ts (tabsOf); the compiler checks that every lab has a view and no view
// names a lab the registry lacks. Page bundle only (the worker never imports a component).
import type { ComponentType } from 'preact';
import { ClassificationView } from './classification/ui/ClassificationView.tsx';
import { CompareView } from './compare/ui/CompareView.tsx';
import { EvaluationView } from './evaluation/ui/EvaluationView.tsx';
import { COMPARE_LINK_ACTIONS } from './compare/state/compare_link_actions.ts';
import type { LinkActions } from '../common/state/link_part.ts';
import type { LabId } from './index.ts';
import type { LinkStateOf } from './links.ts';
import type { LinkedLab } from './link_words.ts';
import { OodView } from './ood/ui/OodView.tsx';
import { ProbeView } from './probe/ui/ProbeView.tsx';
import { RegressionView } from './regression/ui/RegressionView.tsx';

export interface LabView {
  /** The tab's panel. */
  view: ComponentType;
  /** The probe settings sidebar (concept, observations, queries, hyperparameters) shows beside it. */
  probeSettings: boolean;
  /** "Export results (CSV)" (the probe's scores of every query) is offered while it shows. */
  resultsExport: boolean;
}

/** A lab's view, and for a lab that carries state in links (labs/link_words.ts) its link in the page. */
export type LabViewOf<L extends LabId> = LabView & (L extends LinkedLab ? { link: LinkActions<LinkStateOf<L>> } : {});

export const LAB_VIEWS: { readonly [L in LabId]: LabViewOf<L> } = {
  probe: { view: ProbeView, probeSettings: true, resultsExport: true },
  ood: { view: OodView, probeSettings: true, resultsExport: true },
  evaluation: { view: EvaluationView, probeSettings: true, resultsExport: false },
  regression: { view: RegressionView, probeSettings: false, resultsExport: false },
  classification: { view: ClassificationView, probeSettings: false, resultsExport: false },
  compare: { view: CompareView, probeSettings: true, resultsExport: false, link: COMPARE_LINK_ACTIONS },
};
