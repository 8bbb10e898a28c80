#!/usr/bin/env node
// Lets a hosted copy of the app load data from other sites: adds origins to the connect-src of the
// Content-Security-Policy <meta> tag in its index.html (the default allows this origin only, so a
// link's ?data= elsewhere is refused with a message saying so). Run it on the built folder you deploy:
//
//   node scripts/deploy/widen_csp.mjs dist/app https://data.example.org https://cdn.example.net
//
// The data's server must also allow the app's origin by CORS (Access-Control-Allow-Origin).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `html` with `origins` added to the connect-src of its CSP meta tag (each once). */
export function widenConnectSrc(html, origins) {
  const meta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/i;
  const match = meta.exec(html);
  if (!match) throw new Error('no Content-Security-Policy <meta> tag found');
  const directives = match[2]
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  const at = directives.findIndex((d) => d.startsWith('connect-src'));
  if (at < 0) throw new Error('the policy has no connect-src directive');
  const sources = directives[at].split(/\s+/);
  for (const origin of origins) {
    const { origin: normalised } = new URL(origin);
    if (!sources.includes(normalised)) sources.push(normalised);
  }
  directives[at] = sources.join(' ');
  return html.replace(meta, `$1${directives.join('; ')}$3`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, ...origins] = process.argv.slice(2);
  if (!dir || origins.length === 0) {
    console.error('usage: node scripts/deploy/widen_csp.mjs DIST_DIR ORIGIN [ORIGIN ...]');
    process.exit(2);
  }
  const file = join(dir, 'index.html');
  writeFileSync(file, widenConnectSrc(readFileSync(file, 'utf8'), origins));
  console.log(`${file}: connect-src now allows ${origins.join(', ')}`);
}
