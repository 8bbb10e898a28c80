// Files by URL (links with ?data=, a Projector config, the bundled demo): downloaded as a stream with
// progress in bytes, cancelled by an AbortSignal, refused above the upload size limit, and every
// failure turned into a message that says what to do. The engine worker runs in a blob worker that
// inherits the page's Content-Security-Policy, so connect-src governs these fetches; a fetch the
// policy blocks is told apart from one the data's server refuses (CORS) by the policy's violation
// event, which fires before fetch() rejects.
import { checkAborted, FileError, MAX_FILE_BYTES, tooLarge } from './table.ts';

// URLs the policy refused recently (the violation event names them).
const blockedByPolicy = new Set<string>();
if (typeof self !== 'undefined' && typeof self.addEventListener === 'function') {
  self.addEventListener('securitypolicyviolation', (event) =>
    blockedByPolicy.add((event as SecurityPolicyViolationEvent).blockedURI),
  );
}

/** The origin of the code asking (the app's), for messages. */
function ownOrigin(): string {
  return typeof location !== 'undefined' ? location.origin : 'this page';
}

/**
 * Why `url` could not be fetched, as a message saying who must allow what. Called when fetch()
 * rejected with a TypeError (the browser says no more than "Failed to fetch").
 */
export async function fetchFailure(url: string, name: string): Promise<FileError> {
  // The violation event is queued as a task; let it arrive.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const { origin } = new URL(url);
  if (blockedByPolicy.has(url) || blockedByPolicy.has(origin)) {
    return new FileError(
      name,
      `this page's Content-Security-Policy does not allow loading data from ${origin}; ` +
        `whoever hosts gpprobe must add ${origin} to connect-src (node scripts/deploy/widen_csp.mjs; see docs/embed.md, "Data by URL: where it may live")`,
    );
  }
  return new FileError(
    name,
    `could not be fetched from ${origin}: its server must allow this page's origin ` +
      `(${ownOrigin()}) by CORS, with the header Access-Control-Allow-Origin, or it is unreachable`,
  );
}

/**
 * fetch() with the messages above; a non-2xx status is an error naming it, except those in `allowed`
 * (which the caller handles).
 */
export async function fetchChecked(
  url: string,
  name: string,
  init: RequestInit = {},
  allowed: number[] = [],
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw new FileError(name, 'loading cancelled');
    if (error instanceof TypeError) throw await fetchFailure(url, name);
    throw error;
  }
  if (!response.ok && !allowed.includes(response.status)) {
    throw new FileError(
      name,
      `could not be downloaded from ${new URL(url).origin} (HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''})`,
    );
  }
  return response;
}

export interface FetchOptions {
  signal?: AbortSignal;
  /** Bytes received so far and the total when the server says it (0 otherwise). */
  onProgress?: (done: number, total: number) => void;
}

/** Whether `name` is a web page itself (then text/html is what it should be). */
const isPage = (name: string) => /\.html?$/i.test(name);

/**
 * The error for a file that came back as a web page: servers of single-page apps (`vite preview`,
 * `npm start`, many static hosts) answer a missing file with their index.html and HTTP 200.
 */
function servedPage(url: string, name: string, how: string): FileError {
  return new FileError(
    name,
    `not found at ${url}: the server answered with a web page (${how}) instead of the file, as a web app's server does for a file it does not have`,
  );
}

/** Whether `bytes` begin like an HTML document (after a BOM and white space). */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 15)
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/**
 * The file at `url` as a Blob (typed by the server), read as a stream. A web page where another file
 * was asked for (by its text/html type, or its first bytes) is "not found" (issue 24, item 4).
 */
export async function fetchBlob(url: string, name: string, options: FetchOptions = {}): Promise<Blob> {
  const response = await fetchChecked(url, name, { signal: options.signal });
  if (!isPage(name) && /^text\/html\b/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel();
    throw servedPage(url, name, 'text/html');
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_FILE_BYTES) {
    await response.body?.cancel();
    throw tooLarge(name, declared);
  }
  if (!response.body) {
    const blob = await response.blob();
    if (!isPage(name) && looksLikeHtml(new Uint8Array(await blob.slice(0, 512).arrayBuffer())))
      throw servedPage(url, name, 'an HTML document');
    return blob;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    if (options.signal?.aborted) await reader.cancel();
    checkAborted(options.signal, name);
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (error) {
      checkAborted(options.signal, name);
      throw new FileError(name, `the download from ${new URL(url).origin} broke off (${(error as Error).message})`);
    }
    if (step.done) break;
    if (received === 0 && !isPage(name) && looksLikeHtml(step.value)) {
      await reader.cancel();
      throw servedPage(url, name, 'an HTML document');
    }
    chunks.push(step.value);
    received += step.value.length;
    if (received > MAX_FILE_BYTES) {
      await reader.cancel();
      throw tooLarge(name, received);
    }
    options.onProgress?.(received, declared);
  }
  return new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? '' });
}

/** The last path segment of a URL, the name its format is recognised by ("embeddings.npy"). */
export function fileNameOf(url: string): string {
  const path = new URL(url).pathname;
  const last = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  return last || new URL(url).hostname;
}
