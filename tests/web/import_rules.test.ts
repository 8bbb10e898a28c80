// The web front end stands in layers, checked here by reading the imports of every file under web/src
// (the TypeScript compiler's own scanner: static, type-only, re-exports and dynamic imports alike):
//
//   engine/, io/   the library and the file formats
//   common/        what more than one lab uses, owned by no lab
//   labs/<lab>/    one folder per lab; labs/*.ts at the top is the registry that joins them
//   app/, embed/   the shell above the labs: the page, the worker, links, start-up, the embed
//
// A layer imports only the layers below it, no lab imports another lab, and no import goes round in a
// circle anywhere (docs/architecture.md "Layers").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../web/src');

/** Every TS/TSX source under web/src (not the CMake-written engine/generated/). */
function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

export interface Edge {
  from: string;
  to: string;
}

/** The files a relative pattern of Vite's import.meta.glob finds from DIR (`*` stands for one folder or file name). */
export function globFiles(dir: string, pattern: string): string[] {
  let paths = [dir];
  for (const part of pattern.split('/')) {
    if (part === '.') continue;
    if (part === '..') paths = paths.map((p) => dirname(p));
    else if (part === '*')
      paths = paths.flatMap((p) =>
        existsSync(p) && statSync(p).isDirectory() ? readdirSync(p).map((n) => join(p, n)) : [],
      );
    else paths = paths.map((p) => join(p, part));
  }
  return paths.filter((p) => existsSync(p) && statSync(p).isFile());
}

/** The imports of every file between files of web/src, as paths relative to it: static, type-only,
 * re-exports, dynamic imports, and the files Vite's import.meta.glob finds (the registry's lab parts). */
export function importEdges(root = SRC): Edge[] {
  const edges: Edge[] = [];
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const targets = info.importedFiles.flatMap((imported) => {
      const specifier = imported.fileName.replace(/\?.*$/, ''); // Vite's ?worker, ?url
      return specifier.startsWith('.') ? [resolve(dirname(file), specifier)] : []; // not packages
    });
    for (const glob of text.matchAll(/import\.meta\.glob(?:<[^(]*>)?\(\s*'([^']+)'/g))
      targets.push(...globFiles(dirname(file), glob[1]));
    for (const target of targets) {
      if (target.startsWith(root)) edges.push({ from: relative(root, file), to: relative(root, target) });
    }
  }
  return edges;
}

/** A file's layer: 0 engine and io, 1 common, 2 labs (the registry included), 3 the shell. */
export function layerOf(path: string): number {
  const top = path.split('/')[0];
  if (top === 'engine' || top === 'io') return 0;
  if (top === 'common') return 1;
  if (top === 'labs') return 2;
  return 3; // app/, embed/
}

/** The lab a file belongs to (labs/<lab>/...), or null for the registry and every other layer. */
export function labOf(path: string): string | null {
  const parts = path.split('/');
  return parts[0] === 'labs' && parts.length > 2 ? parts[1] : null;
}

/** Imports that go up: from a layer into one above it. */
export function upwardImports(edges: Edge[]): string[] {
  return edges.filter((e) => layerOf(e.to) > layerOf(e.from)).map((e) => `${e.from} -> ${e.to}`);
}

/** Imports from one lab's folder into another's. */
export function crossLabImports(edges: Edge[]): string[] {
  return edges
    .filter((e) => labOf(e.from) !== null && labOf(e.to) !== null && labOf(e.from) !== labOf(e.to))
    .map((e) => `${e.from} -> ${e.to}`);
}

/** The import cycles: each strongly connected component of more than one file (or a file importing
 * itself), as its files in a circle's order where one is found, sorted for a stable message. */
export function importCycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from)!.push(to);
  }
  // Tarjan's strongly connected components (iterative: the graph has a thousand edges).
  let counter = 0;
  const index = new Map<string, number>(),
    low = new Map<string, number>(),
    onStack = new Set<string>(),
    stack: string[] = [];
  const components: string[][] = [];
  for (const root of [...next.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; i: number }[] = [{ node: root, i: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const out = next.get(frame.node)!;
      if (frame.i < out.length) {
        const to = out[frame.i++];
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, i: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = next.get(frame.node)!.includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.sort((a, b) => a[0].localeCompare(b[0]));
}

// What is still wrong below common/, in the library and the file formats (web/src/engine, web/src/io: their
// own changes fix these). A new cycle or upward import there fails as anywhere else; fixing one of these
// means taking it off this list.
const KNOWN_UPWARD = ['io/parse_worker.ts -> common/worker/transferables.ts'];
const KNOWN_CYCLES = [
  ['engine/certify/classification_certify.ts', 'engine/progress.ts'],
  ['engine/classification/classification.ts', 'engine/classification/multiclass.ts'],
  ['engine/compare/compare_representations.ts', 'engine/probe/probe_engine.ts', 'engine/probe/probe_file.ts'],
  ['io/isolated_parse.ts', 'io/multi_arrays.ts', 'io/parquet.ts', 'io/parquet_over_http.ts', 'io/parse_worker.ts'],
];
const isKnownCycle = (cycle: string[]) => KNOWN_CYCLES.some((k) => k.join() === cycle.join());

describe('the imports of web/src', () => {
  const edges = importEdges();

  it('are read: the shell imports the labs, the labs import common, the engine and io', () => {
    // The checks below mean nothing if the scanner found no imports; these are imports that must be there.
    const has = (from: RegExp, to: RegExp) => edges.some((e) => from.test(e.from) && to.test(e.to));
    expect(edges.length).toBeGreaterThan(500);
    expect(has(/^app\//, /^labs\/views\.ts$/)).toBe(true);
    expect(has(/^labs\/worker\.ts$/, /^labs\/probe\/worker\/lab_handlers\.ts$/)).toBe(true); // a glob's
    expect(has(/^labs\/probe\//, /^common\//)).toBe(true);
    expect(has(/^labs\//, /^engine\//)).toBe(true);
    expect(has(/^labs\//, /^io\//)).toBe(true);
  });

  it('never go up a layer (common, io and the engine import no lab and not the shell; labs not the shell)', () => {
    expect(upwardImports(edges).filter((e) => !KNOWN_UPWARD.includes(e))).toEqual([]);
  });

  it('never go from one lab into another (what two labs share is in common/)', () => {
    expect(crossLabImports(edges)).toEqual([]);
  });

  it('never go round in a circle', () => {
    expect(importCycles(edges).filter((c) => !isKnownCycle(c))).toEqual([]);
  });

  it('go round in a circle below common/ only where they did (engine/, io/: KNOWN_CYCLES)', () => {
    for (const cycle of KNOWN_CYCLES) {
      expect(cycle.every((file) => file.startsWith('engine/') || file.startsWith('io/'))).toBe(true);
    }
  });
});

describe('the checker', () => {
  const edge = (from: string, to: string): Edge => ({ from, to });

  it("reach a lab's link state only through the registry (links: labs/link_words.ts, labs/links.ts, labs/views.ts)", () => {
    // The shell's link files (reading, writing and opening links) know no lab but the probe lab, whose
    // session the shell keeps: a lab that carries state in links declares it in the registry alone.
    const registry = ['labs/index.ts', 'labs/views.ts', 'labs/links.ts', 'labs/link_words.ts'];
    const linkFiles = /^app\/(link_[a-z_]+|share_link|startup)\.ts$/;
    const offending = importEdges()
      .filter((e) => linkFiles.test(e.from) && layerOf(e.to) === 2)
      .filter((e) => !registry.includes(e.to) && labOf(e.to) !== 'probe')
      .map((e) => `${e.from} -> ${e.to}`);
    expect(offending).toEqual([]);
  });

  it('places files in their layers and labs', () => {
    expect(layerOf('engine/heap.ts')).toBe(0);
    expect(layerOf('io/npy.ts')).toBe(0);
    expect(layerOf('common/plots/roc.ts')).toBe(1);
    expect(layerOf('labs/index.ts')).toBe(2);
    expect(layerOf('labs/ood/ui/OodView.tsx')).toBe(2);
    expect(layerOf('app/App.tsx')).toBe(3);
    expect(layerOf('embed/element.ts')).toBe(3);
    expect(labOf('labs/ood/ui/OodView.tsx')).toBe('ood');
    expect(labOf('labs/index.ts')).toBeNull();
    expect(labOf('common/state/session_store.ts')).toBeNull();
  });

  it('finds an upward import, a cross-lab import and a cycle with its files', () => {
    const edges = [
      edge('common/a.ts', 'labs/probe/b.ts'),
      edge('labs/probe/b.ts', 'labs/ood/c.ts'),
      edge('labs/ood/c.ts', 'common/a.ts'),
      edge('labs/ood/c.ts', 'engine/d.ts'),
      edge('app/e.ts', 'labs/index.ts'),
      edge('labs/index.ts', 'labs/index.ts'),
    ];
    expect(upwardImports(edges)).toEqual(['common/a.ts -> labs/probe/b.ts']);
    expect(crossLabImports(edges)).toEqual(['labs/probe/b.ts -> labs/ood/c.ts']);
    expect(importCycles(edges)).toEqual([['common/a.ts', 'labs/ood/c.ts', 'labs/probe/b.ts'], ['labs/index.ts']]);
  });

  it('reads type-only imports, re-exports and dynamic imports', () => {
    const info = ts.preProcessFile(
      "import type { A } from './a.ts';\nexport { B } from './b.ts';\nconst c = await import('./c.ts');\nimport W from './w.ts?worker';",
      true,
      true,
    );
    expect(info.importedFiles.map((f) => f.fileName)).toEqual(['./a.ts', './b.ts', './c.ts', './w.ts?worker']);
  });
});
