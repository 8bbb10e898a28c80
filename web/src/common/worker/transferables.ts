// The buffers of every typed array inside a result, so a worker can transfer them to the page
// instead of copying (the worker does not keep what it sends).
export function buffersOf(
  value: unknown,
  into: Transferable[] = [],
  seen = new Set<ArrayBufferLike>(),
): Transferable[] {
  if (ArrayBuffer.isView(value)) {
    if (!seen.has(value.buffer) && value.buffer instanceof ArrayBuffer) {
      seen.add(value.buffer);
      into.push(value.buffer);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) buffersOf(v, into, seen);
  } else if (value && typeof value === 'object' && !(value instanceof Blob)) {
    for (const v of Object.values(value)) buffersOf(v, into, seen);
  }
  return into;
}
