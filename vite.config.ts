import { defineConfig } from 'vite';

// The app: a static folder (dist/app) that works from any sub-path (relative base), so it can be
// hosted as a demo or embedded in documentation pages. Preact's JSX via tsconfig (jsxImportSource).
export default defineConfig({
  root: 'web',
  base: './',
  publicDir: 'public',
  build: {
    outDir: '../dist/app',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 600,
  },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
