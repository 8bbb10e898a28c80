// A lab's data source (web/src/common/state/data_source.ts): the data asked for last win, whatever order
// the answers arrive in. The Classification lab lost a user's choice to this race: picking "Three
// blobs" as the lab started, the default example's load, begun after it and answered first or last,
// replaced it (the Chromium explain test met it on a loaded machine).
import { effect, signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { dataSource } from '../../web/src/common/state/data_source.ts';

/** A promise the test resolves or rejects when it chooses. */
function deferred<T>() {
  let resolve!: (v: T) => void, reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function source() {
  const model = signal('none');
  const s = dataSource<string, number, string>({
    fromTable: () => {
      throw new Error('no tables here');
    },
    defaultChoice: () => 0,
    afterExample: (e) => {
      model.value = `model of ${e}`;
    },
  });
  return { s, model };
}

describe('a lab data source', () => {
  it('keeps the example asked for last when the one asked for first answers later', async () => {
    const { s } = source();
    const first = deferred<{ data: string; example: string }>(),
      second = deferred<{ data: string; example: string }>();
    const errors: unknown[] = [];
    const a = s.loadExample(
      () => first.promise,
      (e) => errors.push(e),
    );
    const b = s.loadExample(
      () => second.promise,
      (e) => errors.push(e),
    );
    second.resolve({ data: 'three blobs', example: 'three-blobs' });
    await b;
    first.resolve({ data: 'two blobs', example: 'two-blobs' });
    await a;
    expect(s.data.value).toBe('three blobs');
    expect(s.example.value).toBe('three-blobs');
    expect(errors).toEqual([]);
  });

  it('keeps the example asked for last when it answers after the earlier one', async () => {
    const { s } = source();
    const first = deferred<{ data: string; example: string }>(),
      second = deferred<{ data: string; example: string }>();
    const a = s.loadExample(
      () => first.promise,
      () => {},
    );
    const b = s.loadExample(
      () => second.promise,
      () => {},
    );
    first.resolve({ data: 'two blobs', example: 'two-blobs' });
    await a;
    expect(s.data.value).toBeNull(); // superseded before it answered: never shown, not even briefly
    second.resolve({ data: 'three blobs', example: 'three-blobs' });
    await b;
    expect(s.data.value).toBe('three blobs');
  });

  it("says a choice was made as soon as it is asked for, so the lab's default never replaces it", async () => {
    const { s } = source();
    expect(s.requested()).toBe(false);
    const pending = deferred<{ data: string; example: string }>();
    const load = s.loadExample(
      () => pending.promise,
      () => {},
    );
    expect(s.requested()).toBe(true);
    pending.resolve({ data: 'digits', example: 'digits-358' });
    await load;
  });

  it('drops a load still on its way when data are adopted directly (a session restored), and its error too', async () => {
    const { s } = source();
    const pending = deferred<{ data: string; example: string }>();
    const errors: unknown[] = [];
    const load = s.loadExample(
      () => pending.promise,
      (e) => errors.push(e),
    );
    s.adopt('from the session', { table: null, choice: null, example: null });
    pending.reject(new Error('HTTP 404'));
    await load;
    expect(s.data.value).toBe('from the session');
    expect(errors).toEqual([]);
  });

  it('reports the failure of the load asked for last, and keeps the data it had', async () => {
    const { s } = source();
    await s.loadExample(
      async () => ({ data: 'two blobs', example: 'two-blobs' }),
      () => {},
    );
    const errors: string[] = [];
    await s.loadExample(
      async () => {
        throw new Error('three_blobs.csv: HTTP 404');
      },
      (e) => errors.push((e as Error).message),
    );
    expect(errors).toEqual(['three_blobs.csv: HTTP 404']);
    expect(s.data.value).toBe('two blobs');
  });

  it("runs the example's own settings in the same batch as the data: nothing sees the data with the old model", async () => {
    const { s, model } = source();
    const seen: string[] = [];
    const stop = effect(() => {
      seen.push(`${s.data.value} / ${model.value}`);
    });
    await s.loadExample(
      async () => ({ data: 'moons', example: 'moons' }),
      () => {},
    );
    stop();
    expect(seen).toEqual(['null / none', 'moons / model of moons']);
  });
});
