// A CSV/TSV file read for a lab (the regression and classification labs): parsed in the engine worker
// ('parse-table', with progress in the task bar), handed to the lab, and on any problem, parsing or the
// lab's own checks, one message naming the file, shown as an alert and returned for the lab's panel. What
// the lab had loaded stays: `use` only runs on a good parse, and throws before changing anything.
import { isCancelled } from '../../engine/errors.ts';
import { FileError } from '../../io/table.ts';
import type { ParsedTable } from '../data/table.ts';
import { notify, request } from './engine_tasks.ts';

/** Null when the table was used (or the read was cancelled), else the problem, naming the file. */
export async function uploadTable(file: File, use: (parsed: ParsedTable) => void): Promise<string | null> {
  try {
    use(await request(`Reading ${file.name}`, { kind: 'parse-table', file, name: file.name }));
    return null;
  } catch (error) {
    if (isCancelled(error)) return null;
    const message = error instanceof Error ? error.message : String(error);
    const problem = error instanceof FileError || message.startsWith(file.name) ? message : `${file.name}: ${message}`;
    notify('error', problem);
    return problem;
  }
}
