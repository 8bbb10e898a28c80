// The gpprobe-publish command (package.json "bin"): bundled by scripts/make/build_single.mjs into
// dist/single/gpprobe-publish.mjs, which reads the template dist/single/gpprobe.html beside it.
import { readFile } from 'node:fs/promises';
import { main } from './publish.ts';

const template = async () => {
  const at = new URL('./gpprobe.html', import.meta.url);
  try {
    return await readFile(at, 'utf8');
  } catch {
    throw new Error(`the page's template ${at.pathname} is missing: run scripts/make/build_single.mjs`);
  }
};

process.exitCode = await main(process.argv.slice(2), template);
