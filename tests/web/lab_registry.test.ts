// The lab registry (web/src/labs/): the tab strip, the link words, the worker's cancel policies and
// handler table all come from it, every request kind of every lab has a policy and a handler, and a
// toy lab added the way docs/architecture.md "How to add a lab" says reaches each derived table. The
// section's paths and names are checked against the tree.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  partsByLab,
  tabsOf,
  type LabEntry,
  type LabId,
} from '../../web/src/labs/index.ts';
import { LAB_POLICIES, type LabRequests } from '../../web/src/labs/protocol.ts';
import type { LabView } from '../../web/src/labs/parts.ts';
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

describe("the labs' parts, found by name in their folders", () => {
  const PART_FILES = ['worker/lab_protocol.ts', 'worker/lab_handlers.ts', 'ui/lab_view.ts'];
  const folders = readdirSync('web/src/labs', { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();

  it('are one file per layer in every lab folder, and every folder is a lab of the registry', () => {
    expect(folders).toEqual([...LAB_IDS].sort());
    for (const lab of folders)
      for (const file of PART_FILES) expect(existsSync(`web/src/labs/${lab}/${file}`), `${lab}/${file}`).toBe(true);
  });

  it("each types its part with its own folder's lab (a part filed under the wrong lab fails here)", () => {
    for (const lab of folders) {
      const text = (file: string) => readFileSync(`web/src/labs/${lab}/${file}`, 'utf8');
      expect(text('worker/lab_protocol.ts'), lab).toMatch(new RegExp(`interface LabRequests \\{\\s*${lab}: Requests;`));
      expect(text('worker/lab_handlers.ts'), lab).toContain(`HANDLERS: LabHandlers<'${lab}'>`);
      expect(text('ui/lab_view.ts'), lab).toContain(`VIEW: LabViewOf<'${lab}'>`);
    }
  });
});

describe('a toy lab added as docs/architecture.md says', () => {
  // Step 2: the registry entry, the one line outside the lab's folder.
  const labs = { ...LABS, toy: { name: 'Toy', aliases: ['old-toy'], engine: 'probe' } } as const satisfies Record<
    string,
    LabEntry
  >;
  // Step 3: its kinds and their cancel policies (labs/toy/worker/lab_protocol.ts).
  interface ToyRequests {
    'toy-echo': { request: { text: string }; result: { text: string } };
  }
  const TOY_POLICIES: Policies<ToyRequests> = { 'toy-echo': 'none' };
  // Step 4: its handler (labs/toy/worker/lab_handlers.ts; the context holds only the engine the lab names).
  const toyHandlers = {
    'toy-echo': (r: { kind: 'toy-echo'; text: string }, c: HandlerContext<'probe'>) => {
      c.progress({ stage: 'echoing', done: 1, total: 1 });
      return { text: r.text.toUpperCase() };
    },
  };
  // Step 6: its view (labs/toy/ui/lab_view.ts).
  const toyView: LabView = { view: () => null, probeSettings: false, resultsExport: false };

  // What import.meta.glob finds in the folders, keyed as it keys them, with the toy lab's files added.
  const found = <P>(parts: Record<string, P>, file: string, name: string, toy?: P) =>
    Object.fromEntries([
      ...Object.entries(parts).map(([lab, part]) => [`./${lab}/${file}`, { [name]: part }]),
      ...(toy === undefined ? [] : [[`./toy/${file}`, { [name]: toy }]]),
    ]) as Record<string, Record<string, P>>;

  it('appears in the tab strip and opens from its old name', () => {
    expect(tabsOf(labs).at(-1)).toEqual({ id: 'toy', label: 'Toy' });
    expect(tabsOf(labs).slice(0, -1)).toEqual(tabsOf(LABS));
    expect(labNamed(labs, 'old-toy')).toBe('toy');
    expect(enginesOf(labs)).toEqual(enginesOf(LABS));
  });

  it("reaches the protocol's policies, the handler table and the views from its folder, and its handler answers", async () => {
    const file = 'worker/lab_protocol.ts';
    const labPolicies = partsByLab(
      labs,
      found<Record<string, string>>(LAB_POLICIES, file, 'POLICIES', TOY_POLICIES),
      file,
      (m) => m.POLICIES,
    );
    const policies = mergeLabTables<string>(labPolicies);
    expect(policies['toy-echo']).toBe('none');
    expect(Object.keys(policies).length).toBe(Object.keys(CANCEL_POLICY).length + 1);
    const handlerFile = 'worker/lab_handlers.ts';
    const labHandlers = partsByLab(
      labs,
      found<unknown>(LAB_HANDLERS, handlerFile, 'HANDLERS', toyHandlers),
      handlerFile,
      (m) => m.HANDLERS,
    );
    const handlers = mergeLabTables<unknown>(labHandlers as Record<string, Record<string, unknown>>) as Record<
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
    const viewFile = 'ui/lab_view.ts';
    const others = Object.fromEntries(LAB_IDS.map((lab) => [lab, toyView]));
    const views = partsByLab(labs, found<LabView>(others, viewFile, 'VIEW', toyView), viewFile, (m) => m.VIEW);
    expect(Object.keys(views).sort()).toEqual([...LAB_IDS, 'toy'].sort());
    expect(views.toy.probeSettings).toBe(false);
  });

  it('stops the app naming the file when the lab has no part, or a folder has a part but no registry entry', () => {
    const file = 'worker/lab_handlers.ts';
    expect(() => partsByLab(labs, found<unknown>(LAB_HANDLERS, file, 'HANDLERS'), file, (m) => m.HANDLERS)).toThrow(
      'lab "toy" of the registry (labs/index.ts) has no labs/toy/worker/lab_handlers.ts',
    );
    expect(() =>
      partsByLab(LABS, found<unknown>(LAB_HANDLERS, file, 'HANDLERS', toyHandlers), file, (m) => m.HANDLERS),
    ).toThrow('labs/toy/worker/lab_handlers.ts belongs to no lab of the registry (labs/index.ts)');
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
    has('web/src/common/registry.ts', 'export interface LabRequests {}');
    has('web/src/labs/protocol.ts', 'export const LAB_POLICIES');
    has('web/src/labs/worker.ts', 'export const LAB_HANDLERS');
    has('web/src/labs/views.ts', 'export const LAB_VIEWS');
    has('web/src/common/worker/engines.ts', 'export const ENGINE_FACTORIES');
    for (const name of [
      'LABS',
      'LabRequests',
      'POLICIES',
      'LabHandlers',
      'LabViewOf',
      'lab_protocol.ts',
      'lab_handlers.ts',
      'lab_view.ts',
    ])
      expect(section).toContain(name);
  });
});
