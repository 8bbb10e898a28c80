// Parsing in a terminable parse worker (issue 9, item 8): the client ends with a FileError naming the
// file when the parser hangs past its budget or the user cancels, and terminates the worker either way;
// a URL's reads restart the budget. A stand-in port plays the worker here; tests/e2e/hostile_upload.e2e.ts
// and remote.e2e.ts run the real one on the reproducer in Chromium, uploaded and served by HTTP.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Progress } from '../../web/src/engine/progress.ts';
import {
  parseBudgetMs,
  parseIsolated,
  type ParsePort,
  type ParseWorkerReply,
  type ParseWorkerRequest,
} from '../../web/src/io/isolated_parse.ts';
import { FileError, type ParsedFile } from '../../web/src/io/table.ts';

/** A port that records what happens to it and answers with `replies` (none, for a hang), 5 ms apart. */
function standIn(
  ...replies: ParseWorkerReply[]
): ParsePort & { terminated: boolean; request?: ParseWorkerRequest; transferred: number } {
  const port = {
    onmessage: null as ParsePort['onmessage'],
    onerror: null as ParsePort['onerror'],
    terminated: false,
    request: undefined as ParseWorkerRequest | undefined,
    transferred: 0,
    postMessage(message: ParseWorkerRequest, transfer: Transferable[]) {
      port.request = message;
      port.transferred = transfer.length;
      replies.forEach((reply, i) =>
        setTimeout(() => port.onmessage?.({ data: reply } as MessageEvent<ParseWorkerReply>), 5 * (i + 1)),
      );
    },
    terminate() {
      port.terminated = true;
    },
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
    const message = await failureOf(
      parseIsolated('parquet', { bytes: new ArrayBuffer(298) }, 'hang.parquet', { budgetMs: 200, spawn: () => port }),
    );
    expect(message).toBe(
      'hang.parquet: the parquet reader did not finish within 0.2 s and was stopped; the file is damaged or built to hang the reader',
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
    expect(port.terminated).toBe(true);
    expect(port.request).toEqual({
      format: 'parquet',
      source: { bytes: new ArrayBuffer(298) },
      fileName: 'hang.parquet',
    });
    expect(port.transferred).toBe(1);
  });

  it('terminates the worker at once on cancel', async () => {
    const port = standIn();
    const controller = new AbortController();
    const result = parseIsolated('parquet', { bytes: new ArrayBuffer(8) }, 'slow.parquet', {
      signal: controller.signal,
      spawn: () => port,
    });
    controller.abort();
    expect(await failureOf(result)).toBe('slow.parquet: loading cancelled');
    expect(port.terminated).toBe(true);
  });

  it('passes on what the worker parsed, or the problem it reported, and ends the worker', async () => {
    const parsed: ParsedFile = { fileName: 'ok.parquet', columns: [], rows: 0, notes: [] };
    const ok = standIn({ type: 'parsed', parsed, size: 8 });
    expect(await parseIsolated('parquet', { bytes: new ArrayBuffer(8) }, 'ok.parquet', { spawn: () => ok })).toEqual({
      parsed,
      size: 8,
    });
    expect(ok.terminated).toBe(true);
    const bad = standIn({ type: 'failed', problem: 'cannot read Parquet: bad footer' });
    expect(
      await failureOf(parseIsolated('parquet', { bytes: new ArrayBuffer(8) }, 'bad.parquet', { spawn: () => bad })),
    ).toBe('bad.parquet: cannot read Parquet: bad footer');
    expect(bad.terminated).toBe(true);
  });

  describe('reading a URL', () => {
    afterEach(() => {
      vi.useRealTimers();
    });
    const url = 'https://data.example/tables/hang.parquet';
    const read = (total: number, done: number): ParseWorkerReply => ({
      type: 'progress',
      progress: { stage: 'reading hang.parquet (only the columns used)', done, total },
    });

    it('sends the URL (nothing to transfer), passes progress on, and starts the budget over at each report', async () => {
      vi.useFakeTimers();
      const parsed: ParsedFile = { fileName: 'hang.parquet', columns: [], rows: 3, notes: [] };
      // Four reads 5 ms apart, then the result: 25 ms in all, against a budget of 12 ms.
      const port = standIn(read(4000, 0), read(4000, 100), read(4000, 900), read(4000, 1700), {
        type: 'parsed',
        parsed,
        size: 4000,
      });
      const seen: Progress[] = [];
      const result = parseIsolated('parquet', { url }, 'hang.parquet', {
        budgetMs: 12,
        spawn: () => port,
        onProgress: (p) => seen.push(p),
      });
      await vi.advanceTimersByTimeAsync(25);
      expect(await result).toEqual({ parsed, size: 4000 });
      expect(seen.map((p) => p.done)).toEqual([0, 100, 900, 1700]);
      expect(port.request).toEqual({ format: 'parquet', source: { url }, fileName: 'hang.parquet' });
      expect(port.transferred).toBe(0);
      expect(port.terminated).toBe(true);
    });

    it("stops a reader that makes no progress for the budget of the file's size, naming the URL", async () => {
      vi.useFakeTimers();
      // 20 MB reported at 5 ms: the budget becomes 30 s from then.
      const port = standIn(read(20 * 2 ** 20, 1000));
      let settled = false;
      const result = parseIsolated('parquet', { url }, 'hang.parquet', { spawn: () => port });
      result
        .catch(() => undefined)
        .finally(() => {
          settled = true;
        });
      await vi.advanceTimersByTimeAsync(5 + 29_999);
      expect(settled).toBe(false);
      expect(port.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await failureOf(result)).toBe(
        `hang.parquet: the parquet reader made no progress reading ${url} for 30 s and was stopped; the file is damaged or built to hang the reader`,
      );
      expect(port.terminated).toBe(true);
    });

    it('gives a URL 10 s before its first report', async () => {
      vi.useFakeTimers();
      const port = standIn();
      const result = parseIsolated('parquet', { url }, 'hang.parquet', { spawn: () => port });
      const failure = failureOf(result);
      await vi.advanceTimersByTimeAsync(9_999);
      expect(port.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await failure).toContain('made no progress reading https://data.example/tables/hang.parquet for 10 s');
    });
  });

  it('gives large files a budget in proportion (10 s + 1 s per MB)', () => {
    expect(parseBudgetMs(298)).toBeCloseTo(10_000.28, 1);
    expect(parseBudgetMs(1.5 * 2 ** 30)).toBe(10_000 + 1_536_000);
  });
});
