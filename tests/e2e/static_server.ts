// A minimal static file server for the browser tests, on loopback only. It serves the built app at "/"
// and again under a sub-path (to check that the build works from any path), and — started a second
// time on another port — plays "another site" holding data: with CORS for the origins it is told to
// allow (none under /nocors/), HTTP range requests (206) as a data host has them, and a log of what
// was asked, so tests can check that Parquet is read by ranges. With `isolated` it sends the headers
// of cross-origin isolation, as `npm start` does. With `spaFallback` it answers a missing file with
// index.html (200, text/html), as `vite preview` behind `npm start` does.
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.npy': 'application/octet-stream',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.md': 'text/markdown',
};

export interface Served {
  method: string;
  path: string;
  range: string | null;
  bytes: number;
}

export interface ServeOptions {
  /** Origins allowed by CORS (Access-Control-Allow-Origin); paths under /nocors/ never allow any. */
  corsOrigins?: Set<string>;
  /** Every request answered, in order. */
  log?: Served[];
  /** Send COOP/COEP (same-origin / require-corp), as `npm start` does: the page is cross-origin isolated. */
  isolated?: boolean;
  /** Answer a missing file with index.html (HTTP 200, text/html), as `vite preview` (`npm start`) does. */
  spaFallback?: boolean;
}

export function serveStatic(
  root: string,
  subPath: string,
  options: ServeOptions = {},
): Promise<{ server: Server; url: string }> {
  const base = resolve(root);
  const server = createServer((request, response) => {
    let path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (subPath && path.startsWith(subPath)) path = '/' + path.slice(subPath.length);
    const headers: Record<string, string> = { 'cache-control': 'no-store', 'accept-ranges': 'bytes' };
    if (options.isolated) {
      Object.assign(headers, {
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-embedder-policy': 'require-corp',
      });
    }
    const origin = request.headers.origin;
    const noCors = path.startsWith('/nocors/');
    if (noCors) path = path.slice('/nocors'.length);
    if (origin && !noCors && options.corsOrigins?.has(origin)) {
      Object.assign(headers, { 'access-control-allow-origin': origin, vary: 'Origin' });
    }
    if (request.method === 'OPTIONS') {
      response
        .writeHead(204, {
          ...headers,
          'access-control-allow-headers': 'range',
          'access-control-allow-methods': 'GET, HEAD',
        })
        .end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(base, path));
    const record = (bytes: number) =>
      options.log?.push({ method: request.method ?? 'GET', path, range: request.headers.range ?? null, bytes });
    if (!file.startsWith(base)) {
      response.writeHead(403).end();
      return;
    }
    let size: number;
    let served = file;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) throw new Error('not a file');
      size = stat.size;
    } catch {
      if (!options.spaFallback) {
        response.writeHead(404, headers).end('not found');
        return;
      }
      served = join(base, 'index.html');
      size = statSync(served).size;
    }
    headers['content-type'] = TYPES[extname(served)] ?? 'application/octet-stream';
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start > end || start >= size) {
        response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
        return;
      }
      response.writeHead(206, {
        ...headers,
        'content-range': `bytes ${start}-${end}/${size}`,
        'content-length': String(end - start + 1),
      });
      record(request.method === 'HEAD' ? 0 : end - start + 1);
      if (request.method === 'HEAD') response.end();
      else createReadStream(served, { start, end }).pipe(response);
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': String(size) });
    record(request.method === 'HEAD' ? 0 : size);
    if (request.method === 'HEAD') response.end();
    else createReadStream(served).pipe(response);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      done({ server, url: `http://127.0.0.1:${port}` });
    }),
  );
}
