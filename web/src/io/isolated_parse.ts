// Parsing an untrusted file where it can be stopped: a parser that may spin forever on a hostile file
// (hyparquet on some damaged Parquet pages, see docs/upstream/hyparquet-hybrid-run-hang.md) runs in a worker of
// its own (parse_worker.ts), which is terminated when the user cancels or when the time budget for the
// file's size runs out. The caller's thread — the engine worker holding the user's data — never blocks.
import { FileError, type ParsedFile } from './table.ts';

/** What runs in the parse worker: the parser of one format. */
export type IsolatedFormat = 'parquet';

export interface ParseWorkerRequest { format: IsolatedFormat; bytes: ArrayBuffer; fileName: string }
export type ParseWorkerReply = { type: 'parsed'; parsed: ParsedFile } | { type: 'failed'; problem: string };

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

function spawnParseWorker(): ParsePort {
  return new Worker(new URL('./parse_worker.ts', import.meta.url), { type: 'module' }) as unknown as ParsePort;
}

/** Whether this environment has workers to isolate parsers in (browsers; not Node). */
export function canIsolate(): boolean {
  return typeof Worker !== 'undefined';
}

/**
 * `bytes` (given up: transferred) parsed as `format` in a fresh parse worker. Rejects with a FileError
 * naming the file when the parser fails, runs past `budgetMs`, or `signal` aborts; the worker is
 * terminated in every case.
 */
export function parseIsolated(
  format: IsolatedFormat, bytes: ArrayBuffer, fileName: string,
  options: { signal?: AbortSignal; budgetMs?: number; spawn?: () => ParsePort } = {},
): Promise<ParsedFile> {
  const budget = options.budgetMs ?? parseBudgetMs(bytes.byteLength);
  return new Promise<ParsedFile>((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new FileError(fileName, 'loading cancelled'));
      return;
    }
    const port = (options.spawn ?? spawnParseWorker)();
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      port.onmessage = null;
      port.onerror = null;
      port.terminate();
      settle();
    };
    const onAbort = () => finish(() => reject(new FileError(fileName, 'loading cancelled')));
    const timer = setTimeout(() => finish(() => reject(new FileError(fileName,
      `the ${format} reader did not finish within ${(budget / 1000).toFixed(budget < 10_000 ? 1 : 0)} s and was stopped; the file is damaged or built to hang the reader`))), budget);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    port.onmessage = (event) => {
      const reply = event.data;
      finish(() => (reply.type === 'parsed' ? resolve(reply.parsed) : reject(new FileError(fileName, reply.problem))));
    };
    port.onerror = (event) => finish(() => reject(new FileError(fileName, `the ${format} reader failed (${event.message})`)));
    port.postMessage({ format, bytes, fileName }, [bytes]);
  });
}
