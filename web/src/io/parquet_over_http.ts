// Parquet over HTTP: hyparquet's range-request buffer (asyncBufferFromUrl) with our fetch — its
// messages (CORS, Content-Security-Policy, HTTP status), progress in bytes and the size limit — so only
// the footer and the column chunks of the columns gpprobe uses cross the network (parquet.ts chooses
// them). In the browser this runs in a parse worker (isolated_parse.ts) that is stopped on cancel or
// when the reader stops making progress; in Node, where there are no workers, in the caller's thread.
import type { Progress } from '../engine/progress.ts';
import { fetchChecked } from './fetch_file.ts';
import { readParquet } from './parquet.ts';
import { checkAborted, MAX_FILE_BYTES, tooLarge, type ParsedFile } from './table.ts';

export interface HttpReadOptions {
  signal?: AbortSignal;
  /** Bytes received so far of the file's size, after each range request. */
  onProgress?: (progress: Progress) => void;
}

/** The Parquet file at `url`, named `name` in messages, read by range requests, with its size. */
export async function readParquetOverHttp(
  url: string,
  name: string,
  options: HttpReadOptions = {},
): Promise<{ parsed: ParsedFile; size: number }> {
  const { asyncBufferFromUrl } = await import('hyparquet');
  const { signal } = options;
  const stage = `reading ${name} (only the columns used)`;
  let fetched = 0,
    size = 0;
  const counting: typeof fetch = async (input, init) => {
    if (init?.method === 'HEAD') {
      // hyparquet asks the size first; a forbidden HEAD (403, as signed S3 URLs answer) it asks again by a range.
      const head = await fetchChecked(String(input), name, { ...init, signal }, [403]);
      const declared = Number(head.headers.get('content-length') ?? 0);
      if (head.ok && declared > 0) options.onProgress?.({ stage, done: 0, total: declared });
      return head;
    }
    const response = await fetchChecked(String(input), name, { ...init, signal });
    fetched += Number(response.headers.get('content-length') ?? 0);
    options.onProgress?.({ stage, done: fetched, total: size || fetched });
    return response;
  };
  const buffer = await asyncBufferFromUrl({ url, fetch: counting });
  size = buffer.byteLength;
  if (size > MAX_FILE_BYTES) throw tooLarge(name, size);
  const parsed = await readParquet(buffer, name);
  checkAborted(signal, name);
  return { parsed, size };
}
