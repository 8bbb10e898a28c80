// Questions the app must ask before it goes on: whether to load data from another site (a link's
// ?data= or ?config= on a host other than the app's), and which embedding of a Projector config to
// show. One at a time; ui/Prompts.tsx draws the pending one.
import { signal } from '@preact/signals';

export type Prompt =
  | { kind: 'hosts'; origins: string[]; files: string[]; answer(load: boolean): void }
  /** `missing`: the name a link asked for that the config does not have. */
  | {
      kind: 'embedding';
      config: string;
      embeddings: { name: string; shape: [number, number] }[];
      missing?: string;
      answer(index: number | null): void;
    };

export const prompt = signal<Prompt | null>(null);

// Prompts wait in line: a second question is asked when the first is answered.
let queue: Promise<unknown> = Promise.resolve();

function ask<T>(make: (answer: (value: T) => void) => Prompt): Promise<T> {
  const asked = queue.then(
    () =>
      new Promise<T>((resolve) => {
        prompt.value = make((value) => {
          prompt.value = null;
          resolve(value);
        });
      }),
  );
  queue = asked.catch(() => undefined);
  return asked;
}

// Origins the reader confirmed on this page, and those the embedding page allowed (embed/).
const allowed = new Set<string>();

export function allowOrigins(origins: Iterable<string>): void {
  for (const o of origins) allowed.add(o);
}

/** The origins of `urls` that are neither the app's nor allowed yet. */
function foreignOrigins(urls: string[]): string[] {
  const origins = urls.map((u) => new URL(u).origin).filter((o) => o !== location.origin && !allowed.has(o));
  return [...new Set(origins)];
}

/**
 * Resolves when every URL may be fetched: same origin, allowed, or confirmed by the reader now.
 * Rejects with a message naming the hosts and files when the reader says no.
 */
export async function confirmOrigins(urls: string[]): Promise<void> {
  const origins = foreignOrigins(urls);
  if (origins.length === 0) return;
  const files = urls
    .filter((u) => origins.includes(new URL(u).origin))
    .map((u) => new URL(u).pathname.split('/').pop() || u);
  const load = await ask<boolean>((answer) => ({ kind: 'hosts', origins, files, answer }));
  if (!load) {
    throw new Error(
      `Not loaded: ${files.join(', ')} from ${origins.join(', ')} (loading data from another site needs your confirmation).`,
    );
  }
  allowOrigins(origins);
}

/**
 * The embedding of a Projector config the reader picks; null when they cancel. `missing`: the name a
 * link asked for and the config does not have (the dialog says so).
 */
export function chooseEmbedding(
  config: string,
  embeddings: { name: string; shape: [number, number] }[],
  missing?: string,
): Promise<number | null> {
  return ask<number | null>((answer) => ({
    kind: 'embedding',
    config,
    embeddings,
    ...(missing !== undefined ? { missing } : {}),
    answer,
  }));
}
