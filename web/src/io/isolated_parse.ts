// Parsing an untrusted file where it can be stopped: a parser that may spin forever on a hostile file
// (hyparquet on some damaged Parquet pages, see docs/upstream/hyparquet-hybrid-run-hang.md) runs in a worker of
// its own (parse_worker.ts), which is terminated when the user cancels or when the time budget for the
// file's size runs out. The caller's thread — the engine worker holding the user's data — never blocks.
// The file is either bytes in memory (an upload) or a URL, which the parse worker reads itself by range
// requests (parquet_over_http.ts), reporting progress after each; each report starts the budget over,
// so a slow network does not count against the reader, and a reader that hangs is stopped one budget
// after its last read.
import type { Progress } from '../engine/progress.ts';
import type { NamedArray } from './arrays.ts';
import parseWorkerUrl from './parse_worker.ts?worker&url';
import { FileError, type ParsedFile } from './table.ts';

/**
 * What runs in the parse worker: the parser of one format ('parquet': one table, the Probe tab's;
 * 'parquet_matrices': every vector column as an array, the Compare lab's, multi_arrays.ts).
 */
export type IsolatedFormat = 'parquet' | 'parquet_matrices';

/** The file to parse: its bytes (given up: transferred), a Blob (read by ranges in the worker), or where to read it. */
export type ParseSource = { bytes: ArrayBuffer } | { blob: Blob } | { url: string };

export interface ParseWorkerRequest {
  format: IsolatedFormat;
  source: ParseSource;
  fileName: string;
}
export type ParseWorkerReply =
  | { type: 'parsed'; parsed: ParsedFile; size: number }
  | { type: 'matrices'; arrays: NamedArray[] }
  | { type: 'progress'; progress: Progress }
  | { type: 'failed'; problem: string };

/** What the client needs of a Worker (a browser Worker is one; tests pass a stand-in). */
export interface ParsePort {
  onmessage: ((event: MessageEvent<ParseWorkerReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: ParseWorkerRequest, transfer: Transferable[]): void;
  terminate(): void;
}

/** 10 s, plus a second per MB: far beyond any honest file (hyparquet reads tens of MB/s), short for a hang. */
export function parseBudgetMs(bytes: number): number {
  return 10_000 + 1000 * (bytes / 2 ** 20);
}

/**
 * A parse worker started from a blob module that imports the worker script, as the engine worker is
 * (main.tsx): a blob worker inherits its creator's Content-Security-Policy, so the page's connect-src
 * governs the parse worker's range requests too.
 */
function spawnParseWorker(): ParsePort {
  const source = `import ${JSON.stringify(new URL(parseWorkerUrl, import.meta.url).href)};\n`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url, { type: 'module' });
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return worker as unknown as ParsePort;
}

/** Whether this environment has workers to isolate parsers in (browsers; not Node). */
export function canIsolate(): boolean {
  return typeof Worker !== 'undefined';
}

export interface IsolatedOptions {
  signal?: AbortSignal;
  /** The time the reader may go without finishing or reporting progress (default: parseBudgetMs of the file's size). */
  budgetMs?: number;
  onProgress?: (progress: Progress) => void;
  spawn?: () => ParsePort;
}

function timeoutProblem(format: IsolatedFormat, source: ParseSource, budget: number): string {
  const seconds = `${(budget / 1000).toFixed(budget < 10_000 ? 1 : 0)} s`;
  const what =
    'url' in source ? `made no progress reading ${source.url} for ${seconds}` : `did not finish within ${seconds}`;
  return `the ${format} reader ${what} and was stopped; the file is damaged or built to hang the reader`;
}

/**
 * `source` parsed as `format` in a fresh parse worker, with the file's size in bytes. Rejects with a
 * FileError naming the file when the parser fails, goes `budgetMs` without progress, or `signal`
 * aborts; the worker is terminated in every case.
 */
export async function parseIsolated(
  format: IsolatedFormat,
  source: ParseSource,
  fileName: string,
  options: IsolatedOptions = {},
): Promise<{ parsed: ParsedFile; size: number }> {
  const reply = await runIsolated(format, source, fileName, options);
  if (reply.type !== 'parsed')
    throw new FileError(fileName, `the ${format} reader answered with ${reply.type}, not a table`);
  return { parsed: reply.parsed, size: reply.size };
}

/** The arrays of every vector column of a Parquet Blob (multi_arrays.ts parquetMatrices), read in a parse worker as parseIsolated reads. */
export async function parquetMatricesIsolated(
  blob: Blob,
  fileName: string,
  options: IsolatedOptions = {},
): Promise<NamedArray[]> {
  const reply = await runIsolated('parquet_matrices', { blob }, fileName, options);
  if (reply.type !== 'matrices')
    throw new FileError(fileName, `the parquet_matrices reader answered with ${reply.type}, not arrays`);
  return reply.arrays;
}

const sizeOf = (source: ParseSource) =>
  'bytes' in source ? source.bytes.byteLength : 'blob' in source ? source.blob.size : 0;

function runIsolated(
  format: IsolatedFormat,
  source: ParseSource,
  fileName: string,
  options: IsolatedOptions,
): Promise<Extract<ParseWorkerReply, { type: 'parsed' | 'matrices' }>> {
  let budget = options.budgetMs ?? parseBudgetMs(sizeOf(source));
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new FileError(fileName, 'loading cancelled'));
      return;
    }
    const port = (options.spawn ?? spawnParseWorker)();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      port.onmessage = null;
      port.onerror = null;
      port.terminate();
      settle();
    };
    const startBudget = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => finish(() => reject(new FileError(fileName, timeoutProblem(format, source, budget)))),
        budget,
      );
    };
    const onAbort = () => finish(() => reject(new FileError(fileName, 'loading cancelled')));
    startBudget();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    port.onmessage = ({ data: reply }) => {
      if (reply.type === 'progress') {
        // The total of a read over HTTP is the file's size, known after its first request.
        if (options.budgetMs === undefined) budget = Math.max(budget, parseBudgetMs(reply.progress.total));
        startBudget();
        options.onProgress?.(reply.progress);
        return;
      }
      finish(() => (reply.type === 'failed' ? reject(new FileError(fileName, reply.problem)) : resolve(reply)));
    };
    port.onerror = (event) => {
      // Reported here, as a FileError naming the file: not also as an uncaught error in the console.
      event.preventDefault?.();
      finish(() => reject(new FileError(fileName, `the ${format} reader failed (${event.message})`)));
    };
    port.postMessage({ format, source, fileName }, 'bytes' in source ? [source.bytes] : []);
  });
}
