// The files a one-file page was opened with (its data block), kept for its own Share → Download as one
// file; null in the hosted app. Kept as Files (the browser's blob storage), not as a second copy in the
// page's memory.
import { signal } from '@preact/signals';
import type { FileRole } from './one_file_format.ts';

export const embeddedFiles = signal<{ file: File; role: FileRole }[] | null>(null);

/** Why the page's data could not be opened, once it failed (the banner shows it). */
export const pageFailure = signal<string | null>(null);
