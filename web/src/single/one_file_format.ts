// The data block of a one-file gpprobe page (docs/embed.md, "One file"): the files of a dataset (any
// format the app reads, as a user would upload them) and the session to open on them, in one
// `<script type="application/octet-stream" id="gpprobe-data">` element of the page's template, as
// base64 of: the 8 magic bytes "GPPROBE" 0x01, a 32-bit little-endian header length, a UTF-8 JSON header,
// then one zlib stream (RFC 1950) of the files' bytes one after another in the header's order.
// Written by the page itself (Share → Download as one file), by `gpprobe-publish` and by Python; read by
// the page. Pure functions over bytes: CompressionStream/DecompressionStream ('deflate' is zlib), atob
// and btoa exist in browsers and in Node 20.

/** The template's empty data block: a writer puts the base64 text between its `>` and `</script>`. */
export const DATA_BLOCK_MARKER = '<script type="application/octet-stream" id="gpprobe-data"></script>';
/** The element's id. */
export const DATA_BLOCK_ID = 'gpprobe-data';

/** "GPPROBE" and the format's version, 1. */
export const MAGIC = Uint8Array.from([0x47, 0x50, 0x50, 0x52, 0x4f, 0x42, 0x45, 0x01]);

/** What a one-file page holds at most (docs/embed.md "One file" shows the arithmetic). */
export const ONE_FILE_LIMITS = {
  /** The files' bytes together, before compression: 256 MiB. */
  filesBytes: 256 * 2 ** 20,
  /** The JSON header: 1 MiB. */
  headerBytes: 2 ** 20,
  /** Files in the block. */
  files: 16,
  /** Characters of a file's name. */
  name: 255,
  /**
   * Characters of the base64 text: 4/3 of the largest block (12 + 1 MiB header + zlib's compressBound
   * of 256 MiB: 359,421,316), below a JavaScript string's 2^29 - 24 in Chromium.
   */
  blockChars: 360_000_000,
} as const;

/** Which upload a file belongs to: the embeddings and their metadata, or an OOD set. */
export type FileRole = 'main' | 'ood';

export interface OneFileMember {
  name: string;
  role: FileRole;
  bytes: Uint8Array;
}

/** The header, as JSON. `state`: the session, a link's JSON of version 1 (its `data` is ignored). */
export interface OneFileHeader {
  format: 'gpprobe-one-file';
  version: 1;
  files: { name: string; size: number; role: FileRole }[];
  state?: Record<string, unknown>;
  /** The page's title (at most 200 characters). */
  title?: string;
}

export interface OneFileContent {
  header: OneFileHeader;
  files: OneFileMember[];
}

/** A data block that cannot be read; the message says what is wrong with it. */
export class OneFileError extends Error {}

const WHAT = "this page's data block";

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes % 2 ** 20 === 0 ? 0 : 1)} MiB`;

/** Checks a header's JSON value field by field; throws a OneFileError naming the field. */
export function checkHeader(value: unknown): OneFileHeader {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new OneFileError(`${WHAT}'s header is not a JSON object`);
  const h = value as Record<string, unknown>;
  if (h.format !== 'gpprobe-one-file')
    throw new OneFileError(`${WHAT}'s header has no "format": "gpprobe-one-file"; it was not written by gpprobe`);
  if (h.version !== 1)
    throw new OneFileError(
      `${WHAT} is of version ${JSON.stringify(h.version)}; this gpprobe reads version 1 (a newer gpprobe wrote it?)`,
    );
  if (!Array.isArray(h.files) || h.files.length === 0)
    throw new OneFileError(`${WHAT}'s header must list its files ("files": a non-empty list)`);
  if (h.files.length > ONE_FILE_LIMITS.files)
    throw new OneFileError(`${WHAT} lists ${h.files.length} files; at most ${ONE_FILE_LIMITS.files} are read`);
  const names = new Set<string>();
  let total = 0;
  const files = h.files.map((f: unknown, i) => {
    const at = `${WHAT}'s files[${i}]`;
    if (typeof f !== 'object' || f === null) throw new OneFileError(`${at} is not an object`);
    const { name, size, role } = f as Record<string, unknown>;
    if (typeof name !== 'string' || name.length === 0 || name.length > ONE_FILE_LIMITS.name || /[/\\\0]/.test(name))
      throw new OneFileError(`${at}.name must be a file name of 1 to 255 characters without / or \\`);
    if (names.has(name)) throw new OneFileError(`${at}.name ${JSON.stringify(name)} is there twice`);
    names.add(name);
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0)
      throw new OneFileError(`${at}.size must be a whole number of bytes, got ${JSON.stringify(size)}`);
    if (role !== 'main' && role !== 'ood') throw new OneFileError(`${at}.role must be "main" or "ood"`);
    total += size;
    return { name, size, role: role as FileRole };
  });
  if (!files.some((f) => f.role === 'main')) throw new OneFileError(`${WHAT} holds no file of role "main"`);
  if (total > ONE_FILE_LIMITS.filesBytes)
    throw new OneFileError(
      `${WHAT}'s files hold ${total.toLocaleString('en-US')} bytes; a one-file page holds at most ${mib(ONE_FILE_LIMITS.filesBytes)} (${ONE_FILE_LIMITS.filesBytes.toLocaleString('en-US')} bytes)`,
    );
  const header: OneFileHeader = { format: 'gpprobe-one-file', version: 1, files };
  if (h.state !== undefined) {
    if (typeof h.state !== 'object' || h.state === null || Array.isArray(h.state))
      throw new OneFileError(`${WHAT}'s "state" must be a link's JSON object`);
    header.state = h.state as Record<string, unknown>;
  }
  if (h.title !== undefined) {
    if (typeof h.title !== 'string' || h.title.length > 200)
      throw new OneFileError(`${WHAT}'s "title" must be a text of at most 200 characters`);
    header.title = h.title;
  }
  return header;
}

async function drain(readable: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  const reader = readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    try {
      onChunk(value);
    } catch (error) {
      // Stop the stream (a write waiting on it is released with the error), then say why.
      void reader.cancel(error).catch(() => undefined);
      throw error;
    }
  }
}

/** `bytes` compressed as one zlib stream (RFC 1950). */
export async function zlibCompress(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const BASE64_STEP = 3 * 2 ** 16;

/** Standard base64 (RFC 4648 section 4) with padding, no line breaks. */
export function toBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += BASE64_STEP) {
    const slice = bytes.subarray(at, at + BASE64_STEP);
    let binary = '';
    for (let i = 0; i < slice.length; i += 0x8000) binary += String.fromCharCode(...slice.subarray(i, i + 0x8000));
    parts.push(btoa(binary));
  }
  return parts.join('');
}

/** The base64 text of a data block holding `files` and the header's other fields. */
export async function encodeDataBlock(
  files: OneFileMember[],
  extra: { state?: Record<string, unknown>; title?: string } = {},
): Promise<string> {
  const header = checkHeader({
    format: 'gpprobe-one-file',
    version: 1,
    files: files.map((f) => ({ name: f.name, size: f.bytes.length, role: f.role })),
    ...extra,
  });
  const json = new TextEncoder().encode(JSON.stringify(header));
  if (json.length > ONE_FILE_LIMITS.headerBytes)
    throw new OneFileError(
      `the data block's header would be ${json.length.toLocaleString('en-US')} bytes; at most 1 MiB`,
    );
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  const payload = new Uint8Array(total);
  let at = 0;
  for (const f of files) {
    payload.set(f.bytes, at);
    at += f.bytes.length;
  }
  const compressed = await zlibCompress(payload);
  const block = new Uint8Array(12 + json.length + compressed.length);
  block.set(MAGIC, 0);
  new DataView(block.buffer).setUint32(8, json.length, true);
  block.set(json, 12);
  block.set(compressed, 12 + json.length);
  return toBase64(block);
}

/** The template with its data block filled: the marker must be in it exactly once. */
export function fillTemplate(template: string, base64: string): string {
  const at = template.indexOf(DATA_BLOCK_MARKER);
  if (at < 0 || template.indexOf(DATA_BLOCK_MARKER, at + 1) >= 0)
    throw new OneFileError('the template must hold its empty data block exactly once');
  const open = DATA_BLOCK_MARKER.length - '</script>'.length;
  return template.slice(0, at + open) + base64 + template.slice(at + open);
}

/** Characters of base64 decoded at a time (a multiple of 4). */
const BASE64_CHUNK = 4 * 2 ** 16;

/** The bytes of the base64 characters [from, to) of `text` (both multiples of 4; `=` only at its end). */
function decodeChars(text: string, from: number, to: number): Uint8Array<ArrayBuffer> {
  const piece = text.slice(from, Math.min(to, text.length));
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(piece) || (to < text.length && piece.includes('=')))
    throw new OneFileError(`${WHAT} is damaged: it holds characters that are not base64`);
  let binary: string;
  try {
    binary = atob(piece);
  } catch {
    throw new OneFileError(`${WHAT} is damaged: it holds characters that are not base64`);
  }
  const out = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k++) out[k] = binary.charCodeAt(k);
  return out;
}

/**
 * Reads a data block's base64 text (surrounding white space allowed): the header checked, then the
 * compressed files decoded a chunk at a time straight into the inflater (no whole copy of the
 * compressed bytes) and inflated into their own buffers, never beyond the sizes the header declares.
 * Throws a OneFileError saying what is wrong: not base64, cut off, not gpprobe's, too large, damaged
 * compressed data, sizes that disagree with the data.
 */
export async function decodeDataBlock(text: string): Promise<OneFileContent> {
  const trimmed = text.trim();
  if (trimmed.length === 0) throw new OneFileError(`${WHAT} is empty: this page is the template, with no data`);
  if (trimmed.length > ONE_FILE_LIMITS.blockChars)
    throw new OneFileError(
      `${WHAT} is ${trimmed.length.toLocaleString('en-US')} characters long; a one-file page holds at most ${ONE_FILE_LIMITS.blockChars.toLocaleString('en-US')}`,
    );
  if (trimmed.length % 4 !== 0)
    throw new OneFileError(
      `${WHAT} is cut off or damaged: its base64 text's length (${trimmed.length}) is not a multiple of 4`,
    );
  const head = decodeChars(trimmed, 0, 16);
  if (head.length < 12 || MAGIC.some((b, i) => head[i] !== b)) {
    const version = head.length >= 8 && MAGIC.slice(0, 7).every((b, i) => head[i] === b) ? head[7] : null;
    throw new OneFileError(
      version !== null
        ? `${WHAT} is of format version ${version}; this gpprobe reads version 1`
        : `${WHAT} is not gpprobe's (it does not begin with GPPROBE 1)${head.length < 12 ? ' or is cut off' : ''}`,
    );
  }
  const headerLength = new DataView(head.buffer).getUint32(8, true);
  if (headerLength > ONE_FILE_LIMITS.headerBytes)
    throw new OneFileError(
      `${WHAT}'s header is said to be ${headerLength.toLocaleString('en-US')} bytes; at most 1 MiB`,
    );
  // The characters that hold the magic, the length and the header (and the first compressed bytes).
  const prefixChars = 4 * Math.ceil((12 + headerLength) / 3);
  const prefix = decodeChars(trimmed, 0, prefixChars);
  if (prefix.length < 12 + headerLength)
    throw new OneFileError(
      `${WHAT} is cut off: its header needs ${headerLength} bytes, ${Math.max(0, prefix.length - 12)} are there`,
    );
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(prefix.subarray(12, 12 + headerLength)));
  } catch {
    throw new OneFileError(`${WHAT}'s header is not UTF-8 JSON`);
  }
  const header = checkHeader(json);
  const files = header.files.map((f) => ({ name: f.name, role: f.role, bytes: new Uint8Array(f.size) }));
  const total = header.files.reduce((n, f) => n + f.size, 0);
  let written = 0;
  let index = 0;
  let offset = 0;
  const inflater = new DecompressionStream('deflate');
  const writer = inflater.writable.getWriter();
  const feeding = (async () => {
    await writer.write(prefix.slice(12 + headerLength));
    for (let at = prefixChars; at < trimmed.length; at += BASE64_CHUNK)
      await writer.write(decodeChars(trimmed, at, at + BASE64_CHUNK));
    await writer.close();
  })().catch((error: unknown) => {
    // Stop the inflater too (its reader is released with the error).
    void writer.abort(error).catch(() => undefined);
    throw error;
  });
  const draining = drain(inflater.readable, (chunk) => {
    if (written + chunk.length > total)
      throw new OneFileError(
        `${WHAT} is damaged: its compressed data holds more than the ${total.toLocaleString('en-US')} bytes its header declares`,
      );
    let from = 0;
    while (from < chunk.length) {
      while (files[index].bytes.length === offset) {
        index++;
        offset = 0;
      }
      const take = Math.min(chunk.length - from, files[index].bytes.length - offset);
      files[index].bytes.set(chunk.subarray(from, from + take), offset);
      offset += take;
      from += take;
    }
    written += chunk.length;
  }).catch((error: unknown) => {
    void writer.abort(error).catch(() => undefined);
    throw error;
  });
  const [fed, drained] = await Promise.allSettled([feeding, draining]);
  // Ours first (base64, sizes), then the inflater's own complaint.
  const failure =
    [drained, fed].find(
      (r): r is PromiseRejectedResult => r.status === 'rejected' && r.reason instanceof OneFileError,
    ) ?? [drained, fed].find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    const error = failure.reason as unknown;
    if (error instanceof OneFileError) throw error;
    throw new OneFileError(
      `${WHAT} is damaged or cut off: its compressed data does not inflate (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (written !== total)
    throw new OneFileError(
      `${WHAT} is damaged: its compressed data holds ${written.toLocaleString('en-US')} bytes, its header declares ${total.toLocaleString('en-US')}`,
    );
  return { header, files };
}
