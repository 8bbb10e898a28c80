// The out-of-distribution lab's part of the registry's page table (labs/views.ts finds it by this file's name): its
// view and what the shell shows beside it. Page bundle only.
import type { LabViewOf } from '../../parts.ts';
import { OodView } from './OodView.tsx';

export const VIEW: LabViewOf<'ood'> = { view: OodView, probeSettings: true, resultsExport: true };
