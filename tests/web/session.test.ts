// Session rules: concept labels, seeded draws (the core's, through the module), toggling, undo/redo,
// and reading sessions back.
import { beforeAll, describe, expect, it } from 'vitest';
import { createProbeEngine, type ProbeEngine } from '../../web/src/engine/index.ts';
import type { Column } from '../../web/src/io/table.ts';
import {
  conceptLabels,
  DEFAULT_SESSION,
  defaultConcept,
  distinctValues,
  queryRows,
  inDistributionMask,
  parseSession,
  record,
  redo,
  toggleObservation,
  undo,
  type History,
  type Session,
} from '../../web/src/common/state/session.ts';

const columns: Column[] = [
  { name: 'animal', kind: 'string', values: ['cat', 'dog', 'eel', 'cat', 'dog', 'cat'] },
  { name: 'size', kind: 'number', values: Float64Array.from([1, 5, 2, 7, 3, 9]) },
];

describe('concepts', () => {
  it('labels rows by chosen values or by a threshold', () => {
    expect(
      Array.from(conceptLabels({ column: 'animal', kind: 'values', positives: ['cat', 'eel'] }, columns, 6)),
    ).toEqual([1, 0, 1, 1, 0, 1]);
    expect(Array.from(conceptLabels({ column: 'size', kind: 'threshold', threshold: 5 }, columns, 6))).toEqual([
      0, 1, 0, 1, 0, 1,
    ]);
    expect(Array.from(conceptLabels({ column: 'size', kind: 'values', positives: ['9', '1'] }, columns, 6))).toEqual([
      1, 0, 0, 0, 0, 1,
    ]);
    expect(distinctValues(columns[0])).toEqual(['cat', 'dog', 'eel']);
  });

  it('chooses a first concept: a few-valued column, positive "1" when it has one', () => {
    const label: Column = { name: 'label', kind: 'number', values: Float64Array.from([0, 1, 0, 1]) };
    const id: Column = {
      name: 'id',
      kind: 'number',
      values: Float64Array.from(Array.from({ length: 40 }, (_, i) => i)),
    };
    expect(defaultConcept([id, label])).toEqual({ column: 'label', kind: 'values', positives: ['1'] });
    expect(defaultConcept([{ name: 'flag', kind: 'string', values: ['no', 'Yes', 'no'] }])).toEqual({
      column: 'flag',
      kind: 'values',
      positives: ['Yes'],
    });
    expect(defaultConcept(columns)).toEqual({ column: 'animal', kind: 'values', positives: ['cat'] });
    expect(defaultConcept([id])).toBeNull();
  });

  it('lists the rows of a query subset', () => {
    expect(queryRows({ kind: 'all' }, columns, 6)).toBeNull();
    expect(Array.from(queryRows({ kind: 'values', column: 'animal', values: ['dog', 'eel'] }, columns, 6)!)).toEqual([
      1, 2, 4,
    ]);
    expect(Array.from(queryRows({ kind: 'values', column: 'size', values: ['9'] }, columns, 6)!)).toEqual([5]);
  });

  it('marks in-distribution rows for a column-based OOD setup', () => {
    expect(
      Array.from(inDistributionMask({ kind: 'column', column: 'animal', inDistribution: ['cat', 'dog'] }, columns, 6)!),
    ).toEqual([1, 1, 0, 1, 1, 1]);
    expect(inDistributionMask({ kind: 'none' }, columns, 6)).toBeNull();
  });
});

let engine: ProbeEngine;
beforeAll(async () => {
  engine = await createProbeEngine();
});
const drawObservations = (labels: Uint8Array, perClass: number, seed: number) =>
  Array.from(engine.drawObservations(labels, perClass, seed));

describe('observations', () => {
  const labels = Uint8Array.from({ length: 100 }, (_, i) => (i % 3 === 0 ? 1 : 0));

  it('draws N per class, seeded, without repeats', () => {
    const a = drawObservations(labels, 5, 42);
    expect(a).toEqual(drawObservations(labels, 5, 42));
    expect(a).not.toEqual(drawObservations(labels, 5, 43));
    expect(a.length).toBe(10);
    expect(new Set(a).size).toBe(10);
    expect(a.filter((r) => labels[r] === 1).length).toBe(5);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    // A class smaller than N gives what it has.
    expect(drawObservations(Uint8Array.from([1, 0, 0, 0]), 3, 1).length).toBe(4);
  });

  it('toggles a row in and out', () => {
    expect(toggleObservation([1, 5], 3)).toEqual([1, 3, 5]);
    expect(toggleObservation([1, 3, 5], 3)).toEqual([1, 5]);
  });
});

describe('undo and redo', () => {
  it('walks back and forth through recorded sessions', () => {
    const s0: Session = { ...DEFAULT_SESSION };
    const s1: Session = { ...s0, epsilon: 0.5 };
    const s2: Session = { ...s1, observations: [3] };
    let h: History = { past: [], future: [] };
    h = record(h, s0);
    h = record(h, s1);
    const back = undo(h, s2)!;
    expect(back.session).toBe(s1);
    const back2 = undo(back.history, back.session)!;
    expect(back2.session).toBe(s0);
    expect(undo(back2.history, back2.session)).toBeNull();
    const forward = redo(back2.history, back2.session)!;
    expect(forward.session).toBe(s1);
    // A new change after undo drops the redo branch.
    expect(record(forward.history, forward.session).future).toEqual([]);
  });
});

describe('session files', () => {
  it('round-trips through JSON and rejects malformed files', () => {
    const s: Session = {
      ...DEFAULT_SESSION,
      data: { kind: 'demo', id: 'digits' },
      concept: { column: 'animal', kind: 'values', positives: ['cat'] },
      observations: [0, 4],
    };
    expect(parseSession(JSON.stringify(s))).toEqual(s);
    expect(() => parseSession('nope')).toThrowError('the session file is not valid JSON');
    expect(() => parseSession('{"version": 2}')).toThrowError('not a gpprobe session (expected "version": 1)');
    expect(() => parseSession(JSON.stringify({ ...s, epsilon: -1 }))).toThrowError(
      'the session file: epsilon must be a number from 1e-300 to 1e300, got -1',
    );
    expect(() => parseSession(JSON.stringify({ ...s, observations: [1.5] }))).toThrowError(
      'the session file: observations[0] must be a whole number from 0 to 4294967295, got 1.5',
    );
  });
});
