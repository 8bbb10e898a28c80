// The probe lab's part of the registry's page table (labs/views.ts finds it by this file's name): its
// view and what the shell shows beside it. Page bundle only.
import type { LabViewOf } from '../../parts.ts';
import { ProbeView } from './ProbeView.tsx';

export const VIEW: LabViewOf<'probe'> = { view: ProbeView, probeSettings: true, resultsExport: true };
