// The lab registry (web/src/labs/): the tab strip, the link words, the worker's cancel policies and
// handler table all come from it, every request kind of every lab has a policy and a handler, and a
// toy lab added the way docs/architecture.md "How to add a lab" says reaches each derived table. The
// section's paths and names are checked against the tree.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Policies, RequestKind } from '../../web/src/common/worker/protocol.ts';
import { CANCEL_POLICY } from '../../web/src/labs/protocol.ts';
import type { HandlerContext } from '../../web/src/common/worker/handler.ts';
import {
  enginesOf,
  LAB_IDS,
  labNamed,
  LABS,
  mergeLabTables,
  tabsOf,
  type LabEntry,
  type LabId,
} from '../../web/src/labs/index.ts';
import { LAB_POLICIES, type LabRequests } from '../../web/src/labs/protocol.ts';
import type { LabView } from '../../web/src/labs/views.tsx';
import { HANDLERS, LAB_HANDLERS } from '../../web/src/labs/worker.ts';

describe('the registry', () => {
  it('gives the tab strip: one tab per lab, labelled with its one name', () => {
    expect(tabsOf(LABS)).toEqual([
      { id: 'probe', label: 'Probe' },
      { id: 'ood', label: 'Out-of-distribution' },
      { id: 'evaluation', label: 'Evaluation' },
      { id: 'regression', label: 'Regression' },
      { id: 'classification', label: 'Classification' },
      { id: 'compare', label: 'Compare' },
    ]);
    expect(LAB_IDS).toEqual(['probe', 'ood', 'evaluation', 'regression', 'classification', 'compare']);
  });

  it("opens links by a lab's id or an old name, and ignores words no lab knows", () => {
    expect(labNamed(LABS, 'evaluation')).toBe('evaluation');
    expect(labNamed(LABS, 'evaluate')).toBe('evaluation');
    expect(labNamed(LABS, 'gpc')).toBe('classification');
    expect(labNamed(LABS, 'Evaluate')).toBeUndefined();
    expect(labNamed(LABS, 'robustness')).toBeUndefined();
    expect(labNamed(LABS, undefined)).toBeUndefined();
  });

  it('has a policy and a handler for every kind, each from the lab that declares it', () => {
    const kinds = Object.keys(CANCEL_POLICY).sort();
    expect(Object.keys(HANDLERS).sort()).toEqual(kinds);
    expect(kinds.length).toBe(LAB_IDS.reduce((n, lab) => n + Object.keys(LAB_POLICIES[lab]).length, 0));
    for (const lab of LAB_IDS) {
      expect(Object.keys(LAB_HANDLERS[lab]).sort(), lab).toEqual(Object.keys(LAB_POLICIES[lab]).sort());
      for (const [kind, policy] of Object.entries(LAB_POLICIES[lab])) {
        expect(CANCEL_POLICY[kind as RequestKind], kind).toBe(policy);
        expect(HANDLERS[kind as RequestKind], kind).toBe((LAB_HANDLERS[lab] as Record<string, unknown>)[kind]);
      }
    }
    // The kinds the page's cancel relies on (the long wasm calls run on the instance cancel terminates).
    expect(
      Object.entries(CANCEL_POLICY)
        .filter(([, p]) => p === 'terminate')
        .map(([k]) => k)
        .sort(),
    ).toEqual([
      'anomaly-experiment',
      'classification-certify',
      'classification-explain',
      'classification-multiclass-certify',
      'classification-multiclass-optimize',
      'classification-optimize',
      'classification-sweep',
      'probe-certify',
      'probe-explain',
      'regression-optimize',
    ]);
    expect(LAB_POLICIES.ood).toEqual({ 'ood-baselines': 'between-chunks' });
    expect(Object.keys(LAB_POLICIES.evaluation)).toEqual(['experiment']);
  });

  it('makes each engine the labs need once', () => {
    expect(enginesOf(LABS)).toEqual(['probe', 'regression', 'classification']);
  });

  it('refuses a kind declared by two labs', () => {
    expect(() => mergeLabTables({ ...LAB_POLICIES, toy: { probe: 'none' } })).toThrow(
      'request kind "probe" is declared by two labs: probe and toy',
    );
  });
});

// Compile-time: each registry part must name every lab (tsc -p tsconfig.json checks these lines).
// @ts-expect-error a lab without its policies does not compile
export const missingLab: { readonly [L in LabId]: Policies<LabRequests[L]> } = { probe: LAB_POLICIES.probe };
// @ts-expect-error a lab without a view does not compile
export const missingView: { readonly [L in LabId]: LabView } = {};

describe('a toy lab added as docs/architecture.md says', () => {
  // Step 2: the registry entry.
  const labs = { ...LABS, toy: { name: 'Toy', aliases: ['old-toy'], engine: 'probe' } } as const satisfies Record<
    string,
    LabEntry
  >;
  // Step 3: its kinds and their cancel policies.
  interface ToyRequests {
    'toy-echo': { request: { text: string }; result: { text: string } };
  }
  const TOY_POLICIES: Policies<ToyRequests> = { 'toy-echo': 'none' };
  // Step 4: its handler (the context holds only the engine the lab names).
  const toyHandlers = {
    'toy-echo': (r: { kind: 'toy-echo'; text: string }, c: HandlerContext<'probe'>) => {
      c.progress({ stage: 'echoing', done: 1, total: 1 });
      return { text: r.text.toUpperCase() };
    },
  };
  // Step 6: its view.
  const toyView: LabView = { view: () => null, probeSettings: false, resultsExport: false };

  it('appears in the tab strip and opens from its old name', () => {
    expect(tabsOf(labs).at(-1)).toEqual({ id: 'toy', label: 'Toy' });
    expect(tabsOf(labs).slice(0, -1)).toEqual(tabsOf(LABS));
    expect(labNamed(labs, 'old-toy')).toBe('toy');
    expect(enginesOf(labs)).toEqual(enginesOf(LABS));
  });

  it("joins the protocol's policies and the handler table, and its handler answers", async () => {
    const policies = mergeLabTables<string>({ ...LAB_POLICIES, toy: TOY_POLICIES });
    expect(policies['toy-echo']).toBe('none');
    expect(Object.keys(policies).length).toBe(Object.keys(CANCEL_POLICY).length + 1);
    const handlers = mergeLabTables<unknown>({ ...LAB_HANDLERS, toy: toyHandlers }) as Record<
      string,
      (typeof toyHandlers)['toy-echo']
    >;
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(policies).sort());
    const stages: string[] = [];
    const context = {
      engines: {},
      signal: new AbortController().signal,
      progress: (p: { stage: string }) => stages.push(p.stage),
    };
    expect(
      await handlers['toy-echo']({ kind: 'toy-echo', text: 'gp' }, context as unknown as HandlerContext<'probe'>),
    ).toEqual({ text: 'GP' });
    expect(stages).toEqual(['echoing']);
    const views: Record<keyof typeof labs, LabView> = { ...({} as Record<LabId, LabView>), toy: toyView };
    expect(views.toy.probeSettings).toBe(false);
  });
});

describe('docs/architecture.md "How to add a lab"', () => {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  const section = doc.slice(doc.indexOf('## How to add a lab'));

  it("points at files that exist (a path with <lab> or <domain> at an existing lab's)", () => {
    const paths = [...section.matchAll(/`((?:web|wasm|tests)\/[^`\s]+)`/g)]
      .map((m) => m[1])
      .filter((p) => !p.includes('/toy/'))
      .map((p) => p.replace('<lab>', 'regression').replace('<domain>', 'regression'));
    expect(paths.length).toBeGreaterThan(8);
    for (const p of paths) expect(existsSync(p), p).toBe(true);
  });

  it('names the registry tables where the steps say they are', () => {
    const has = (file: string, text: string) => expect(readFileSync(file, 'utf8'), `${file}: ${text}`).toContain(text);
    has('web/src/labs/index.ts', 'export const LABS = {');
    has('web/src/labs/protocol.ts', 'export interface LabRequests {');
    has('web/src/labs/protocol.ts', 'export const LAB_POLICIES');
    has('web/src/labs/worker.ts', 'export const LAB_HANDLERS');
    has('web/src/labs/views.tsx', 'export const LAB_VIEWS');
    has('web/src/common/worker/engines.ts', 'export const ENGINE_FACTORIES');
    for (const name of ['LABS', 'LabRequests', 'LAB_POLICIES', 'LAB_HANDLERS', 'LAB_VIEWS'])
      expect(section).toContain(name);
  });
});
