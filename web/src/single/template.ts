// The one-file page's HTML around its parts: written by scripts/make/build_single.mjs (the template) and
// rebuilt by the page itself from its own elements when it writes a copy (Share → Download as one file),
// byte for byte the same.
import { DATA_BLOCK_MARKER } from './one_file_format.ts';

export interface TemplateParts {
  /** The page's Content-Security-Policy (no network: scripts by hash and blob workers, data: and blob: images). */
  csp: string;
  /** The app's styles. */
  css: string;
  /** The app's code, one ES module with `</script` written `<\/script`. */
  js: string;
}

export const STYLE_ID = 'gpprobe-style';
export const SCRIPT_ID = 'gpprobe-app';

export function templateHtml({ csp, css, js }: TemplateParts): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="generator" content="gpprobe one-file page (docs/embed.md, One file)">
<title>gpprobe</title>
<style id="${STYLE_ID}">${css}</style>
</head>
<body>
<div id="gpprobe-banner"></div>
<div id="app"></div>
<noscript>This gpprobe page needs JavaScript and WebAssembly.</noscript>
<script type="module" id="${SCRIPT_ID}">${js}</script>
${DATA_BLOCK_MARKER}
</body>
</html>
`;
}
