// The compare lab's part of the registry's page table (labs/views.ts finds it by this file's name): its
// view and what the shell shows beside it. Page bundle only.
import type { LabViewOf } from '../../parts.ts';
import { CompareView } from './CompareView.tsx';
import { COMPARE_LINK_ACTIONS } from '../state/compare_link_actions.ts';

export const VIEW: LabViewOf<'compare'> = {
  view: CompareView,
  probeSettings: true,
  resultsExport: false,
  link: COMPARE_LINK_ACTIONS,
};
