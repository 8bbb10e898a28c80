// The parse worker: parses one file — bytes it was given, or a URL it reads by range requests,
// reporting progress — and answers once; its caller (isolated_parse.ts) terminates it afterwards, or
// earlier on cancel or when the time budget runs out.
import type { ParseWorkerReply, ParseWorkerRequest } from './isolated_parse.ts';
import { blobBuffer, parquetMatrices } from './multi_arrays.ts';
import { readParquet } from './parquet.ts';
import { readParquetOverHttp } from './parquet_over_http.ts';
import { FileError } from './table.ts';
import { buffersOf } from '../common/worker/transferables.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ParseWorkerRequest>) => void) | null;
  postMessage(message: ParseWorkerReply, transfer?: Transferable[]): void;
};

scope.onmessage = async ({ data: { format, source, fileName } }) => {
  try {
    if (format === 'parquet_matrices') {
      if (!('blob' in source)) throw new FileError(fileName, 'the Compare reader takes a Blob');
      // Each row group read is progress: it starts the budget over, so only a reader stuck in one group is stopped.
      const arrays = await parquetMatrices(blobBuffer(source.blob), fileName, {
        onProgress: (fraction) =>
          scope.postMessage({ type: 'progress', progress: { stage: `reading ${fileName}`, done: fraction, total: 1 } }),
      });
      scope.postMessage({ type: 'matrices', arrays }, buffersOf(arrays));
      return;
    }
    if ('blob' in source) throw new FileError(fileName, 'the parquet reader takes bytes or a URL');
    const { parsed, size } =
      'url' in source
        ? await readParquetOverHttp(source.url, fileName, {
            onProgress: (progress) => scope.postMessage({ type: 'progress', progress }),
          })
        : { parsed: await readParquet(source.bytes, fileName), size: source.bytes.byteLength };
    scope.postMessage({ type: 'parsed', parsed, size }, buffersOf(parsed));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const problem =
      error instanceof FileError && message.startsWith(`${fileName}: `) ? message.slice(fileName.length + 2) : message;
    scope.postMessage({ type: 'failed', problem });
  }
};
