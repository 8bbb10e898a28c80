// Pointers that lead somewhere: every repository path named in code and docs exists, every section a doc
// or a comment points at is a heading of that page, and sources are cited by title and authors (a reader
// outside this team has no "paper 001").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(dirname(new URL(import.meta.url).pathname), '..', '..');
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(1)
      .map((_, i, parts) =>
        file
          .split('/')
          .slice(0, i + 1)
          .join('/'),
      ),
  ),
);
const exists = (path: string) => tracked.includes(path) || folders.has(path.replace(/\/$/, ''));

/** The files whose text is read: sources, scripts and docs (not data, fixtures or fuzz corpora, nor this test). */
const sources = tracked.filter(
  (file) =>
    /\.(h|cpp|ts|tsx|mts|mjs|js|py|pyi|md|sh|css)$/.test(file) &&
    !/(^|\/)corpus\//.test(file) &&
    !file.startsWith('tests/e2e/fixtures/') &&
    !file.startsWith('tests/repo/') &&
    !file.startsWith('web/public/'),
);
const text = new Map(sources.map((file) => [file, readFileSync(join(root, file), 'utf8')]));

/** Paths that name what a build writes, not what the repository holds. */
const BUILT = /^(build|dist|web\/dist|web\/src\/engine\/generated|python\/build)(\/|$)/;
/** Repository paths in running text: a top-level folder of the project, then a path. */
const PATH = /(?<![\w./@-])((?:core|web|wasm|tests|scripts|docs|python)\/[A-Za-z0-9_./-]*[A-Za-z0-9_])/g;

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
const headings = (file: string) =>
  (readFileSync(join(root, file), 'utf8').match(/^#{1,6} .*$/gm) ?? []).map((h) => h.replace(/^#+ /, ''));

describe('pointers in code and docs', () => {
  it('name repository paths that exist', () => {
    const missing: string[] = [];
    for (const [file, body] of text) {
      for (const match of body.matchAll(PATH)) {
        const path = match[1].replace(/\.$/, '');
        const next = body[match.index! + match[0].length] ?? '';
        if ('*{<$'.includes(next) && next !== '') continue; // a glob or a template, not one path
        if (BUILT.test(path) || /\/toy(\/|$)/.test(path) || exists(path)) continue;
        missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('link to pages and sections that exist', () => {
    const missing: string[] = [];
    for (const [file, body] of text) {
      if (!file.endsWith('.md')) continue;
      for (const match of body.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1];
        if (/^[a-z]+:/i.test(target)) continue; // http:, mailto:
        const [page, anchor] = target.split('#');
        const path = page === '' ? file : normalize(join(dirname(file), page));
        if (!exists(path)) {
          missing.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor && path.endsWith('.md') && !headings(path).some((h) => slug(h) === anchor)) {
          missing.push(`${file}: ${target} (no such section)`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('point at sections by a heading the page has', () => {
    // `some-page.md "Heading"`, `README "Heading"` or `README.md's "Heading" section` in comments and docs.
    const missing: string[] = [];
    const POINTER = /((?:[\w./-]+\.md)|README)(?:'s)? (?:section )?"([^"\n]{3,80})"/g;
    for (const [file, body] of text) {
      for (const match of body.matchAll(POINTER)) {
        const page = match[1] === 'README' ? 'README.md' : match[1];
        const path = exists(page) ? page : normalize(join(dirname(file), page));
        if (!exists(path)) {
          missing.push(`${file}: ${page} (no such file)`);
          continue;
        }
        const wanted = match[2].replace(/[.,]$/, '');
        if (!headings(path).some((h) => h === wanted || slug(h) === slug(wanted))) {
          missing.push(`${file}: ${page} "${wanted}"`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('cite sources by title and authors, never by number', () => {
    const numbered: string[] = [];
    for (const [file, body] of text) {
      for (const match of body.matchAll(/\b(paper|lecture)s? 0\d\d\b|papers\/0\d\d_/gi)) {
        numbered.push(`${file}: ${match[0]}`);
      }
    }
    expect(numbered).toEqual([]);
  });
});
