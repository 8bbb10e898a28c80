// The tab the reader looks at: a lab of the registry (typed by it through common/registry.ts). The
// shell shows it and links carry it (app/view_state.ts); a lab may send the reader to another lab's tab.
import { signal } from '@preact/signals';
import type { RegisteredLab } from '../registry.ts';

export const activeTab = signal<RegisteredLab>('probe');
