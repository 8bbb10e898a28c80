// Serves the production build (dist/app, made by scripts/make/build.sh) for the browser tests.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { serveStatic } from './static_server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    subPathUrl: string;
  }
}

export default async function setup(project: TestProject) {
  if (!existsSync('dist/app/index.html')) throw new Error('dist/app is missing: run scripts/make/build.sh first');
  const { server, url } = await serveStatic('dist/app', '/docs/tools/gpprobe/');
  project.provide('baseUrl', `${url}/`);
  project.provide('subPathUrl', `${url}/docs/tools/gpprobe/`);
  return () => new Promise<void>((done) => server.close(() => done()));
}
