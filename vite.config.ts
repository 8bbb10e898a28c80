import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// The app: a static folder (dist/app) that works from any sub-path (relative base), so it can be
// hosted as a demo or embedded in documentation pages. Preact's JSX via tsconfig (jsxImportSource).
// Beside index.html it holds embed.js, the <gpprobe-probe> element as one ES module with a stable
// name (it finds the app beside itself), and docs/embed.html, the example page of embedding.

/** docs/embed.html and its script, copied as they are to dist/app/docs/. */
function docsPage(): Plugin {
  return {
    name: 'gpprobe-docs-page',
    generateBundle() {
      for (const file of ['embed.html', 'embed-demo.js']) {
        this.emitFile({ type: 'asset', fileName: `docs/${file}`, source: readFileSync(resolve(here, 'docs', file)) });
      }
    },
  };
}

// Cross-origin isolation (COOP/COEP), so the engine can load its threaded module; GPPROBE_ISOLATION=0
// serves without it (one thread, as on a plain static host).
const ISOLATION_HEADERS: Record<string, string> =
  process.env.GPPROBE_ISOLATION === '0'
    ? {}
    : { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  root: 'web',
  base: './',
  publicDir: 'public',
  plugins: [docsPage()],
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      input: { index: resolve(here, 'web/index.html'), embed: resolve(here, 'web/src/embed/element.ts') },
      output: { entryFileNames: (chunk) => (chunk.name === 'embed' ? 'embed.js' : 'assets/[name]-[hash].js') },
    },
  },
  worker: { format: 'es' },
  // Cross-origin isolation, so the engine loads its threaded module (engine/load_module.ts; README
  // "Threads"). Data from other origins still loads when its host answers with CORS.
  server: { host: '127.0.0.1', port: 5173, headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, headers: ISOLATION_HEADERS },
});
