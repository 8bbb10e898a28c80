// Types of scripts/deploy/widen_csp.mjs for the TypeScript tests that use it.
export function widenConnectSrc(html: string, origins: string[]): string;
