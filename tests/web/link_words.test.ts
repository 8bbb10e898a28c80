// The words of a link are one table (web/src/app/link_words.ts): the page reads each of them as a link
// parameter (app/link_params.ts) and the <gpprobe-probe> element observes each as an attribute
// (embed/element.ts). Neither spells its own list.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paramsLink } from '../../web/src/app/link_params.ts';
import { LINK_WORDS, SEVERAL_WORDS, STATE_WORDS, URL_WORDS } from '../../web/src/app/link_words.ts';

const SRC = resolve(__dirname, '../../web/src');

/** The words a link may carry, as docs/embed.md lists them. */
const DOCUMENTED = [
  'data',
  'metadata',
  'ood',
  'config',
  'embedding',
  'demo',
  'concept',
  'per-class',
  'seed',
  'observations',
  'epsilon',
  'strength',
  'queries',
  'tab',
  'color-by',
  'selected',
  'compare',
  'compare-concepts',
  'compare-view',
  'compare-draws',
];

function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** Array literals of five or more strings, every one a link word: a list of link words spelled out. */
function wordLists(file: string): string[][] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const words = new Set(DOCUMENTED);
  const lists: string[][] = [];
  const visit = (node: ts.Node) => {
    if (ts.isArrayLiteralExpression(node)) {
      const texts = node.elements.map((e) => (ts.isStringLiteral(e) ? e.text : null));
      if (texts.length >= 5 && texts.every((t) => t !== null && words.has(t))) lists.push(texts as string[]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return lists;
}

describe('the link words', () => {
  it('are the documented twenty, with the URLs and the words given more than once marked', () => {
    expect(STATE_WORDS).toEqual(DOCUMENTED);
    expect(Object.keys(LINK_WORDS)).toEqual(DOCUMENTED);
    expect(URL_WORDS).toEqual(['data', 'metadata', 'ood', 'config', 'compare']);
    expect(SEVERAL_WORDS).toEqual(['metadata', 'compare']);
  });

  it('each make a link of the page on their own', () => {
    for (const word of STATE_WORDS) {
      const value = URL_WORDS.includes(word) ? 'https://example.org/x.npy' : '1';
      expect(paramsLink(new URLSearchParams({ [word]: value }), 'https://example.org/'), word).not.toBeNull();
    }
    expect(paramsLink(new URLSearchParams({ views: 'map', embed: '1' }), 'https://example.org/')).toBeNull();
  });

  it('are spelled as a list nowhere in web/src but their table', () => {
    const lists = sources().flatMap((file) => wordLists(file).map((list) => `${relative(SRC, file)}: ${list.join()}`));
    expect(lists).toEqual([]);
  });

  describe('are the attributes <gpprobe-probe> observes', () => {
    const saved = { HTMLElement: globalThis.HTMLElement, customElements: globalThis.customElements };
    beforeAll(() => {
      // Enough of a browser for the element's module to define its class.
      const registry = new Map<string, unknown>();
      Object.assign(globalThis, {
        HTMLElement: class {},
        customElements: { get: (n: string) => registry.get(n), define: (n: string, c: unknown) => registry.set(n, c) },
      });
    });
    afterAll(() => Object.assign(globalThis, saved));

    it('every word, then its own two (views, height)', async () => {
      const { GpprobeProbe } = await import('../../web/src/embed/element.ts');
      expect(GpprobeProbe.observedAttributes).toEqual([...DOCUMENTED, 'views', 'height']);
    });
  });
});
