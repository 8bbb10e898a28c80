// The parse worker (isolated_parse.ts): parses one file and answers once; the page side terminates it
// afterwards, or earlier on cancel or when the time budget runs out.
import type { ParseWorkerReply, ParseWorkerRequest } from './isolated_parse.ts';
import { readParquet } from './parquet.ts';
import { FileError } from './table.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ParseWorkerRequest>) => void) | null;
  postMessage(message: ParseWorkerReply, transfer?: Transferable[]): void;
};

/** The buffers of the parsed arrays, handed over rather than copied. */
function buffersOf(parsed: { embeddings?: { data: ArrayBufferView }; columns: { values: unknown }[] }): Transferable[] {
  const views = [parsed.embeddings?.data, ...parsed.columns.map((c) => c.values)].filter(ArrayBuffer.isView);
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

scope.onmessage = async ({ data: { bytes, fileName } }) => {
  try {
    const parsed = await readParquet(bytes, fileName);
    scope.postMessage({ type: 'parsed', parsed }, buffersOf(parsed));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const problem = error instanceof FileError && message.startsWith(`${fileName}: `) ? message.slice(fileName.length + 2) : message;
    scope.postMessage({ type: 'failed', problem });
  }
};
