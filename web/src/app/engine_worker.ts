// The engine's thread, one script for every lab: loads the wasm module once, and answers the page's
// requests (common/worker/protocol.ts) with the handler of their kind (the lab registry's HANDLERS, labs/worker.ts), forwarding progress and reading cancel
// messages between chunks. The page may start a second instance of this same script for requests
// whose cancel policy is 'terminate' (engine_client.ts); that instance never holds resident data.
import { errorOf, GpprobeError } from '../engine/errors.ts';
import { loadModule } from '../engine/load_module.ts';
import { FileError } from '../io/table.ts';
import type { Engines } from '../common/worker/engines.ts';
import { HANDLERS, makeEngines } from '../labs/worker.ts';
import type { Handler } from '../common/worker/handler.ts';
import type { FromWorker, Request, RequestKind, ResultOf, ToWorker } from '../common/worker/protocol.ts';
import { buffersOf } from '../common/worker/transferables.ts';

const scope = self as unknown as {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
};

const enginesPromise: Promise<Engines> = loadModule().then(makeEngines);
const running = new Map<number, AbortController>();

function post(message: FromWorker, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

async function handle(id: number, request: Request, signal: AbortSignal): Promise<ResultOf<RequestKind>> {
  const engines = await enginesPromise;
  // A request cancelled while it waited does not start.
  if (signal.aborted) throw new GpprobeError('cancelled', 'cancelled');
  const handler = HANDLERS[request.kind] as Handler<RequestKind>;
  return handler(request, { engines, signal, progress: (progress) => post({ type: 'progress', id, progress }) });
}

function failure(error: unknown, cancelled: boolean): { code: string; message: string } {
  if (cancelled) return { code: 'cancelled', message: 'cancelled' };
  const code =
    error instanceof GpprobeError ? error.code : error instanceof FileError ? 'parse_error' : 'internal_error';
  return errorOf(code, error instanceof Error ? error.message : String(error));
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const message = event.data;
  if (message.type === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const { id, request } = message;
  const controller = new AbortController();
  running.set(id, controller);
  handle(id, request, controller.signal)
    .then(
      (result) => post({ type: 'result', id, kind: request.kind, result }, buffersOf(result)),
      (error: unknown) => {
        const { code, message: text } = failure(error, controller.signal.aborted);
        post({ type: 'error', id, code, message: text });
      },
    )
    .finally(() => running.delete(id));
};

enginesPromise.then(
  (engines) =>
    post({
      type: 'ready',
      backend: engines.probe.backend,
      threads: engines.probe.threads,
      fused: engines.probe.fusedMultiplyAdd,
    }),
  (error: unknown) =>
    post({ type: 'error', id: -1, code: 'internal_error', message: `the engine could not start: ${String(error)}` }),
);
