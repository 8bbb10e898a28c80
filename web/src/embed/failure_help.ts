// Where an embed's `gpprobe-error` event points the host page, chosen by why the data failed: a file the
// server does not have needs a corrected address, not advice on Content-Security-Policy; a policy or
// CORS refusal needs whoever hosts the app or the data; a file that arrived but could not be read
// needs the formats gpprobe reads. The reasons are the messages of io/fetch_file.ts and the readers.

const DATA_BY_URL = 'docs/embed.md, "Data by URL: where it may live"';

/** The help for a failure whose message is `reason`. */
export function failureHelp(reason: string): string {
  if (/Content-Security-Policy/.test(reason)) {
    return `${DATA_BY_URL} (node scripts/deploy/widen_csp.mjs adds an origin to the app's connect-src)`;
  }
  if (/Access-Control-Allow-Origin/.test(reason)) {
    return `${DATA_BY_URL} (the data's server must allow the app's origin by CORS)`;
  }
  if (/\(HTTP (404|410)\b|: not found at /.test(reason)) {
    return 'there is no file at that address: check the URL (a relative path is resolved against the page that holds the element)';
  }
  if (/\(HTTP \d{3}\b/.test(reason)) {
    return `the data's server refused or failed to send the file (the HTTP status above): ask whoever hosts the data; ${DATA_BY_URL}`;
  }
  if (/loading cancelled/.test(reason)) return 'the element was removed or given new data before this file arrived';
  return 'the file arrived but gpprobe could not read it: the formats it reads are in docs/probe.md, "Data"';
}
