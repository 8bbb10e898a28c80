// Parsing in a terminable parse worker (issue 9, item 8): the client ends with a FileError naming the
// file when the parser hangs past its budget or the user cancels, and terminates the worker either way.
// A stand-in port plays the worker here; tests/e2e/hostile_upload.e2e.ts runs the real one on the
// reproducer in Chromium.
import { describe, expect, it } from 'vitest';
import { parseBudgetMs, parseIsolated, type ParsePort, type ParseWorkerReply } from '../../web/src/io/isolated_parse.ts';
import { FileError, type ParsedFile } from '../../web/src/io/table.ts';

/** A port that records what happens to it and answers with `reply` (or never, for a hang). */
function standIn(reply?: ParseWorkerReply): ParsePort & { terminated: boolean; sent: number } {
  const port = {
    onmessage: null as ParsePort['onmessage'], onerror: null as ParsePort['onerror'], terminated: false, sent: 0,
    postMessage(message: { bytes: ArrayBuffer }) {
      port.sent = message.bytes.byteLength;
      if (reply) setTimeout(() => port.onmessage?.({ data: reply } as MessageEvent<ParseWorkerReply>), 5);
    },
    terminate() { port.terminated = true; },
  };
  return port;
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FileError);
    return (error as Error).message;
  }
  throw new Error('expected a FileError');
}

describe('parseIsolated', () => {
  it('stops a parser that runs past its budget and names the file', async () => {
    const port = standIn();
    const started = performance.now();
    const message = await failureOf(parseIsolated('parquet', new ArrayBuffer(298), 'hang.parquet', { budgetMs: 200, spawn: () => port }));
    expect(message).toBe('hang.parquet: the parquet reader did not finish within 0.2 s and was stopped; the file is damaged or built to hang the reader');
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(port.terminated).toBe(true);
    expect(port.sent).toBe(298);
  });

  it('terminates the worker at once on cancel', async () => {
    const port = standIn();
    const controller = new AbortController();
    const result = parseIsolated('parquet', new ArrayBuffer(8), 'slow.parquet', { signal: controller.signal, spawn: () => port });
    controller.abort();
    expect(await failureOf(result)).toBe('slow.parquet: loading cancelled');
    expect(port.terminated).toBe(true);
  });

  it('passes on what the worker parsed, or the problem it reported, and ends the worker', async () => {
    const parsed: ParsedFile = { fileName: 'ok.parquet', columns: [], rows: 0, notes: [] };
    const ok = standIn({ type: 'parsed', parsed });
    expect(await parseIsolated('parquet', new ArrayBuffer(8), 'ok.parquet', { spawn: () => ok })).toEqual(parsed);
    expect(ok.terminated).toBe(true);
    const bad = standIn({ type: 'failed', problem: 'cannot read Parquet: bad footer' });
    expect(await failureOf(parseIsolated('parquet', new ArrayBuffer(8), 'bad.parquet', { spawn: () => bad })))
      .toBe('bad.parquet: cannot read Parquet: bad footer');
    expect(bad.terminated).toBe(true);
  });

  it('gives large files a budget in proportion (10 s + 1 s per MB)', () => {
    expect(parseBudgetMs(298)).toBeCloseTo(10_000.28, 1);
    expect(parseBudgetMs(1.5 * 2 ** 30)).toBe(10_000 + 1_536_000);
  });
});
