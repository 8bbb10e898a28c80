// The classification lab's part of the registry's page table (labs/views.ts finds it by this file's name): its
// view and what the shell shows beside it. Page bundle only.
import type { LabViewOf } from '../../parts.ts';
import { ClassificationView } from './ClassificationView.tsx';

export const VIEW: LabViewOf<'classification'> = {
  view: ClassificationView,
  probeSettings: false,
  resultsExport: false,
};
