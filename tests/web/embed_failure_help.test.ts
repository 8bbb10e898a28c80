// The help an embed's gpprobe-error event carries follows from why the data failed (issue 36, item 12):
// a plain 404 asks for a corrected address, never for Content-Security-Policy changes. The reasons are
// the real messages of io/fetch_file.ts, from a local server answering 404, 403 and an index page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failureHelp } from '../../web/src/embed/failure_help.ts';
import { fetchBlob, fetchChecked } from '../../web/src/io/fetch_file.ts';

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/gone.npy') response.writeHead(404, 'Not Found').end();
    else if (request.url === '/private.npy') response.writeHead(403, 'Forbidden').end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function reason(load: () => Promise<unknown>): Promise<string> {
  try {
    await load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the load succeeded');
}

describe('failureHelp', () => {
  it('answers a 404 with the address to check, not with CSP advice', async () => {
    const why = await reason(() => fetchChecked(`${base}/gone.npy`, 'gone.npy'));
    expect(why).toContain('(HTTP 404 Not Found)');
    const help = failureHelp(why);
    expect(help).toContain('there is no file at that address: check the URL');
    expect(help).not.toMatch(/Content-Security-Policy|connect-src|widen_csp/);
  });

  it('answers an index page served in place of a missing file the same way', async () => {
    const why = await reason(() => fetchBlob(`${base}/missing.npy`, 'missing.npy'));
    expect(why).toContain('the server answered with a web page');
    expect(failureHelp(why)).toContain('there is no file at that address');
  });

  it('sends a refusal by the data server to whoever hosts the data', async () => {
    const why = await reason(() => fetchChecked(`${base}/private.npy`, 'private.npy'));
    expect(why).toContain('(HTTP 403 Forbidden)');
    expect(failureHelp(why)).toContain("the data's server refused or failed to send the file");
  });

  it('points a fetch the browser refused at CORS, and a policy refusal at connect-src', async () => {
    // A closed port: fetch() rejects with a TypeError, as a CORS refusal does in a browser.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const why = await reason(() => fetchChecked(`http://127.0.0.1:${port}/x.npy`, 'x.npy'));
    expect(why).toContain('Access-Control-Allow-Origin');
    expect(failureHelp(why)).toContain("must allow the app's origin by CORS");
    expect(
      failureHelp("x.npy: this page's Content-Security-Policy does not allow loading data from https://a.b"),
    ).toContain('widen_csp.mjs');
  });

  it('sends a file that arrived but could not be read to the formats', () => {
    expect(failureHelp('m.npy: the header says 3 dimensions; gpprobe reads 2-D arrays')).toBe(
      'the file arrived but gpprobe could not read it: the formats it reads are in docs/probe.md, "Data"',
    );
  });
});
