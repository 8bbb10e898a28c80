// The parse worker: parses one file and answers once; its caller (isolated_parse.ts) terminates it
// afterwards, or earlier on cancel or when the time budget runs out.
import type { ParseWorkerReply, ParseWorkerRequest } from './isolated_parse.ts';
import { readParquet } from './parquet.ts';
import { FileError } from './table.ts';
import { buffersOf } from '../worker/transferables.ts';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<ParseWorkerRequest>) => void) | null;
  postMessage(message: ParseWorkerReply, transfer?: Transferable[]): void;
};

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
