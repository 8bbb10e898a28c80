#!/usr/bin/env node
// Builds the one-file page's template and the gpprobe-publish command (docs/embed.md, "One file"):
//
//   dist/single/gpprobe.html          the template: the app (web/src/single/main.tsx), its styles, its
//                                     engine worker and the single-threaded wasm module, inlined; its
//                                     data block empty
//   dist/single/gpprobe-publish.mjs   the command (package.json "bin"), reading the template beside it
//   dist/app/gpprobe-one-file.html    a copy of the template for the app's Share → Download as one file
//                                     (when dist/app exists: run after `vite build`)
//
// Run after the wasm build (web/src/engine/generated/gpprobe.wasm) and after `npx vite build`:
//   node scripts/make/build_single.mjs
// The engine worker and the parse worker are classic scripts started from blob: URLs: Chromium refuses
// module workers from blob: URLs on a file:// page (an opaque origin) and runs classic ones.
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const generated = join(root, 'web/src/engine/generated');
const work = join(root, 'build/single');
const out = join(root, 'dist/single');
// The relaxed-SIMD twin is inlined beside the plain one (the app runs it in Chromium; the page's numbers
// are then the app's to the bit). GPPROBE_SINGLE_RELAXED=0 leaves it out (a smaller page, the plain twin).
const withRelaxed = process.env.GPPROBE_SINGLE_RELAXED !== '0' && existsSync(join(generated, 'gpprobe-relaxed.wasm'));

for (const file of ['gpprobe.mjs', 'gpprobe.wasm']) {
  if (!existsSync(join(generated, file)))
    throw new Error(
      `build_single: ${join(generated, file)} is missing: build the wasm module first (scripts/make/build.sh)`,
    );
}

const inlineWasm = (file) => deflateSync(readFileSync(join(generated, file)), { level: 9 }).toString('base64');

/** The build's own modules: the inlined wasm, and the single-thread loader in place of engine/load_module.ts. */
function onePagePlugin() {
  const virtual = 'virtual:gpprobe-inline-wasm';
  const loader = join(root, 'web/src/engine/load_module.ts');
  const isolated = join(root, 'web/src/io/isolated_parse.ts');
  return {
    name: 'gpprobe-one-file',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (id === virtual) return `\0${virtual}`;
      if (importer && /load_module\.ts$/.test(id) && resolve(dirname(importer), id) === loader)
        return join(root, 'web/src/single/load_module_single.ts');
      return null;
    },
    load(id) {
      if (id !== `\0${virtual}`) return null;
      return (
        `export const simd128Wasm = ${JSON.stringify(inlineWasm('gpprobe.wasm'))};\n` +
        `export const relaxedWasm = ${withRelaxed ? JSON.stringify(inlineWasm('gpprobe-relaxed.wasm')) : 'null'};\n`
      );
    },
    // The parse worker (Parquet, stopped when it hangs) is started as the engine worker is: an inlined
    // classic blob worker in place of a module worker importing its URL.
    transform(code, id) {
      if (id !== isolated) return null;
      const importLine = "import parseWorkerUrl from './parse_worker.ts?worker&url';";
      const spawn = /function spawnParseWorker\(\): ParsePort \{[\s\S]*?\n\}\n/;
      if (!code.includes(importLine) || !spawn.test(code))
        throw new Error('build_single: web/src/io/isolated_parse.ts changed: update its one-file rewrite here');
      return code
        .replace(importLine, "import ParseWorker from './parse_worker.ts?worker&inline';")
        .replace(
          spawn,
          'function spawnParseWorker(): ParsePort {\n  return new ParseWorker() as unknown as ParsePort;\n}\n',
        );
    },
  };
}

rmSync(work, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// 1. The page's code and styles: one script, everything inlined.
await build({
  configFile: false,
  root: join(root, 'web'),
  base: './',
  publicDir: false,
  logLevel: 'warn',
  plugins: [onePagePlugin()],
  worker: { format: 'iife', plugins: () => [onePagePlugin()] },
  build: {
    outDir: join(work, 'page'),
    emptyOutDir: true,
    target: 'es2022',
    // Everything the page uses inline; not the .wasm the Emscripten module names by new URL(...,
    // import.meta.url) as its default location: the page gives it the bytes (load_module_single.ts).
    assetsInlineLimit: (file) => !file.endsWith('.wasm'),
    cssCodeSplit: false,
    modulePreload: false,
    chunkSizeWarningLimit: 100_000,
    rolldownOptions: {
      // The inlined worker's build is slow by nature (it bundles the engine): no timing report.
      checks: { pluginTimings: false },
      input: join(root, 'web/src/single/main.tsx'),
      output: { entryFileNames: 'page.js', assetFileNames: '[name][extname]', codeSplitting: false },
    },
  },
});

// 2. The HTML around them (web/src/single/template.ts, built for Node to run here).
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    ssr: join(root, 'web/src/single/template.ts'),
    outDir: join(work, 'template'),
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: { output: { entryFileNames: 'template.mjs' } },
  },
});
const { templateHtml } = await import(pathToFileURL(join(work, 'template/template.mjs')).href);

const pageFiles = readdirSync(join(work, 'page'), { recursive: true });
const jsFiles = pageFiles.filter((f) => f.endsWith('.js'));
const cssFiles = pageFiles.filter((f) => f.endsWith('.css'));
if (jsFiles.length !== 1 || cssFiles.length > 1)
  throw new Error(`build_single: expected one script and at most one stylesheet, got ${pageFiles.join(', ')}`);
// Inside <script>, "</script" ends it (written "<\/script", the same text in JS strings, regexes and
// comments); "<!--" followed by "<script" would hide the end: refused rather than guessed at.
const js = readFileSync(join(work, 'page', jsFiles[0]), 'utf8').replace(/<\/(script)/gi, '<\\/$1');
if (/<!--/.test(js) && /<script/i.test(js))
  throw new Error('build_single: the page script holds "<!--" and "<script", which the HTML parser would misread');
const css = cssFiles.length
  ? readFileSync(join(work, 'page', cssFiles[0]), 'utf8').replace(/<\/(style)/gi, '<\\/$1')
  : '';
const hash = createHash('sha256').update(js, 'utf8').digest('base64');
const csp = [
  "default-src 'none'",
  `script-src 'sha256-${hash}' 'wasm-unsafe-eval' blob:`,
  'worker-src blob: data:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  'connect-src data: blob:',
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
const html = templateHtml({ csp, css, js });
writeFileSync(join(out, 'gpprobe.html'), html);
if (existsSync(join(root, 'dist/app')))
  copyFileSync(join(out, 'gpprobe.html'), join(root, 'dist/app/gpprobe-one-file.html'));

// 3. gpprobe-publish, for Node.
await build({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    ssr: join(root, 'scripts/publish/gpprobe-publish.ts'),
    outDir: join(work, 'bin'),
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      output: { entryFileNames: 'gpprobe-publish.mjs', codeSplitting: false, banner: '#!/usr/bin/env node' },
    },
  },
  ssr: { noExternal: true },
});
copyFileSync(join(work, 'bin/gpprobe-publish.mjs'), join(out, 'gpprobe-publish.mjs'));
chmodSync(join(out, 'gpprobe-publish.mjs'), 0o755);

const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(
  `build_single: ${join('dist/single', 'gpprobe.html')} ${kb(Buffer.byteLength(html))}` +
    ` (script ${kb(Buffer.byteLength(js))}, styles ${kb(Buffer.byteLength(css))}, relaxed twin ${withRelaxed ? 'in' : 'left out'}); dist/single/gpprobe-publish.mjs`,
);
