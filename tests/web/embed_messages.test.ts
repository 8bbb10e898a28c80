// The embed's messages are read by their whole shape (issue 23, item 8): a config whose allowOrigins is
// 5, null, missing, or holds something that is not an http(s) origin is not a config; a message for
// another element, of another type, or with a detail of the wrong shape is not a message of ours. The
// well-formed ones come back field for field. (tests/e2e/embed_trust.e2e.ts posts the same malformed
// configs to the app in Chromium.)
import { describe, expect, it } from 'vitest';
import { readToApp, readToHost } from '../../web/src/embed/messages.ts';

const element = 'gpprobe-1';

describe('messages to the app', () => {
  it('refuses configs with malformed allowOrigins', () => {
    for (const allowOrigins of [
      5,
      null,
      undefined,
      'https://a.example',
      [5],
      [null],
      ['https://a.example/path'],
      ['javascript:alert(1)'],
      ['file:///etc'],
      ['not a url'],
      Array.from({ length: 65 }, (_, i) => `https://h${i}.example`),
    ]) {
      expect(
        readToApp({ gpprobe: 'config', element, allowOrigins }, element),
        JSON.stringify(allowOrigins)?.slice(0, 40),
      ).toBeNull();
    }
    expect(readToApp({ gpprobe: 'config', element }, element)).toBeNull();
  });

  it('refuses messages of another element or type, and sets whose params are not text', () => {
    expect(readToApp({ gpprobe: 'config', element: 'gpprobe-2', allowOrigins: [] }, element)).toBeNull();
    expect(readToApp({ gpprobe: 'results', element }, element)).toBeNull();
    expect(readToApp(null, element)).toBeNull();
    expect(readToApp('config', element)).toBeNull();
    expect(readToApp({ gpprobe: 'set', element, params: 5 }, element)).toBeNull();
    expect(readToApp({ gpprobe: 'set', element, params: 'x'.repeat(64 * 1024 + 1) }, element)).toBeNull();
  });

  it('reads well-formed messages field for field', () => {
    expect(
      readToApp(
        { gpprobe: 'config', element, allowOrigins: ['https://data.example', 'http://127.0.0.1:8080'], extra: 1 },
        element,
      ),
    ).toEqual({ gpprobe: 'config', element, allowOrigins: ['https://data.example', 'http://127.0.0.1:8080'] });
    expect(readToApp({ gpprobe: 'config', element, allowOrigins: [] }, element)).toEqual({
      gpprobe: 'config',
      element,
      allowOrigins: [],
    });
    expect(readToApp({ gpprobe: 'set', element, params: 'epsilon=2' }, element)).toEqual({
      gpprobe: 'set',
      element,
      params: 'epsilon=2',
    });
  });
});

describe('messages to the host page', () => {
  const results = {
    rows: 3,
    queryRows: null,
    observations: [0],
    observationLabels: [1],
    concept: null,
    epsilon: 0.1,
    strength: 5,
    scores: { judgedProbability: Float64Array.from([0.5, 0.5, 0.5]) },
    link: 'https://app.example/#s=x',
  };

  it('reads results, selections, errors and hello, and refuses malformed details', () => {
    expect(readToHost({ gpprobe: 'hello', element }, element)).toEqual({ gpprobe: 'hello', element });
    expect(readToHost({ gpprobe: 'results', element, detail: results }, element)).toEqual({
      gpprobe: 'results',
      element,
      detail: results,
    });
    expect(readToHost({ gpprobe: 'results', element, detail: { ...results, rows: '3' } }, element)).toBeNull();
    expect(readToHost({ gpprobe: 'results', element, detail: null }, element)).toBeNull();
    const select = { row: 2, isObservation: false, label: null, scores: null, metadata: { label: '7' } };
    expect(readToHost({ gpprobe: 'select', element, detail: select }, element)).toEqual({
      gpprobe: 'select',
      element,
      detail: select,
    });
    expect(readToHost({ gpprobe: 'select', element, detail: { ...select, row: null } }, element)).toBeNull();
    expect(
      readToHost(
        { gpprobe: 'error', element, detail: { message: 'm.npy: not found', help: 'docs/embed.md' } },
        element,
      ),
    ).toEqual({ gpprobe: 'error', element, detail: { message: 'm.npy: not found', help: 'docs/embed.md' } });
    expect(readToHost({ gpprobe: 'error', element, detail: { message: 5, help: '' } }, element)).toBeNull();
    expect(readToHost({ gpprobe: 'hello', element: 'other' }, element)).toBeNull();
  });
});
