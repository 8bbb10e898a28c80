// How a request kind is cancelled (common/worker/protocol.ts explains each policy). Each lab declares
// its kinds' policies in its own protocol; a leaf module, so those protocols import nothing else here.

export type CancelPolicy = 'between-chunks' | 'terminate' | 'none';
/** The policies of a lab's request kinds. */
export type Policies<R> = { readonly [K in keyof R]: CancelPolicy };
