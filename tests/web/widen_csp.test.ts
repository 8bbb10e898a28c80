// scripts/deploy/widen_csp.mjs on the app's real index.html: the origins join connect-src once (a URL is cut
// to its origin), every other directive stays as it was, and a page without the policy is refused.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { widenConnectSrc } from '../../scripts/deploy/widen_csp.mjs';

const html = readFileSync('web/index.html', 'utf8');
const policy = (page: string) => /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(page)![1].split('; ');

describe('widen_csp', () => {
  it('adds origins to connect-src only, once each', () => {
    const wide = widenConnectSrc(html, [
      'https://data.example.org/some/path.npy',
      'https://cdn.example.net',
      'https://data.example.org',
    ]);
    const before = policy(html),
      after = policy(wide);
    expect(after.find((d) => d.startsWith('connect-src'))).toBe(
      "connect-src 'self' blob: data: https://data.example.org https://cdn.example.net",
    );
    expect(after.filter((d) => !d.startsWith('connect-src'))).toEqual(
      before.filter((d) => !d.startsWith('connect-src')),
    );
    expect(widenConnectSrc(wide, ['https://cdn.example.net'])).toBe(wide);
  });

  it('refuses a page without the policy', () => {
    expect(() => widenConnectSrc('<html></html>', ['https://a.example'])).toThrow(
      'no Content-Security-Policy <meta> tag found',
    );
  });
});
