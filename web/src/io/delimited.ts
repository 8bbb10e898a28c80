// Delimited text (.csv, .tsv, .txt; also the Embedding Projector's vectors.tsv / metadata.tsv), parsed
// as a stream so large files never become one giant string. RFC 4180 quoting ("a,b", "say ""hi""").
//
// Which columns are embedding dimensions: a column of vector literals "[0.1, 0.2, ...]" when there is
// one, otherwise the rule of column_roles.ts (dimension-like names, else every numeric column but
// metadata-looking names).
// Everything else is metadata (numeric when every value parses as a number, otherwise text).
// The first row is a header when none of its cells is a number.
import { dimensionColumns } from './column_roles.ts';
import { checkAborted, FileError, type Column, type ParsedFile, type ParseOptions } from './table.ts';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SPECIAL = /^[+-]?(nan|inf|infinity)$/i;

export function parseNumber(cell: string): number | null {
  const t = cell.trim();
  if (NUMBER.test(t)) return Number(t);
  if (SPECIAL.test(t)) return t.toLowerCase().includes('nan') ? NaN : t.startsWith('-') ? -Infinity : Infinity;
  return null;
}

function describe(v: number): string {
  return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
}

function quoted(cell: string): string {
  const printable = cell.slice(0, 24).replace(/[^\x20-\x7e]/g, '?');
  return `'${printable}${cell.length > 24 ? '...' : ''}'`;
}

export function delimiterFor(fileName: string, firstLine: string): string {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.tsv')) return '\t';
  if (lower.endsWith('.csv')) return ',';
  if (firstLine.includes('\t')) return '\t';
  if (firstLine.includes(',')) return ',';
  if (firstLine.includes(';')) return ';';
  return ',';
}

/** A Float64Array that grows by doubling (no boxed JS array for millions of values). */
class GrowableFloat64 {
  #data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.#data.length) {
      const bigger = new Float64Array(this.#data.length * 2);
      bigger.set(this.#data);
      this.#data = bigger;
    }
    this.#data[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.#data.slice(0, this.length);
  }
}

export interface DelimitedOptions {
  delimiter?: string;
  noHeader?: boolean;
  metadataOnly?: boolean;
}

type Role = { kind: 'dimension' } | { kind: 'vector' } | { kind: 'metadata' };

/** Incremental parser: push() text chunks in order, then finish(). */
export class DelimitedParser {
  readonly #fileName: string;
  #delimiter: string | null;
  readonly #forceNoHeader: boolean;
  readonly #metadataOnly: boolean;
  // tokenizer state
  #cell = '';
  #cells: string[] = [];
  #inQuotes = false;
  #quotePending = false; // saw a quote inside quotes: either an escaped quote or the end of the field
  #line = 1;
  #rowLine = 1;
  #lastWasCR = false;
  #sawAnything = false;
  // table state
  #header: string[] | null = null;
  #decided = false;
  #roles: Role[] = [];
  #firstDataLine = 0;
  #width = 0;
  #rows = 0;
  #dims = 0;
  #embedding = new GrowableFloat64();
  #metadata: string[][] = [];

  /** noHeader: the first row is data; metadataOnly: no column is an embedding dimension. */
  constructor(fileName: string, delimiter: string | null = null, options: DelimitedOptions = {}) {
    this.#fileName = fileName;
    this.#delimiter = delimiter;
    this.#forceNoHeader = options.noHeader ?? false;
    this.#metadataOnly = options.metadataOnly ?? false;
  }

  #fail(problem: string): never {
    throw new FileError(this.#fileName, problem);
  }

  push(chunk: string): void {
    if (!this.#sawAnything && chunk.length > 0) {
      if (chunk.includes('\0')) this.#fail('looks like a binary file, not delimited text');
      if (this.#delimiter === null) this.#delimiter = delimiterFor(this.#fileName, chunk.split(/\r?\n/, 1)[0]);
    }
    if (chunk.length > 0) this.#sawAnything = true;
    const delimiter = this.#delimiter ?? ',';
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (this.#lastWasCR) {
        this.#lastWasCR = false;
        if (c === '\n') continue; // \r\n already ended the row
      }
      if (this.#quotePending) {
        this.#quotePending = false;
        if (c === '"') {
          this.#cell += '"';
          continue;
        }
        this.#inQuotes = false; // the quote closed the field; fall through to handle c
      }
      if (this.#inQuotes) {
        if (c === '"') this.#quotePending = true;
        else {
          if (c === '\n') this.#line++;
          this.#cell += c;
        }
        continue;
      }
      if (c === '"' && this.#cell.trim() === '') {
        this.#cell = '';
        this.#inQuotes = true;
      } else if (c === delimiter) {
        this.#cells.push(this.#cell);
        this.#cell = '';
      } else if (c === '\n' || c === '\r') {
        this.#lastWasCR = c === '\r';
        this.#endRow();
        this.#line++;
        this.#rowLine = this.#line;
      } else {
        // Take the whole run up to the next delimiter, newline or quote in one slice.
        let j = i + 1;
        while (j < chunk.length) {
          const d = chunk[j];
          if (d === delimiter || d === '\n' || d === '\r' || d === '"') break;
          j++;
        }
        this.#cell += chunk.slice(i, j);
        i = j - 1;
      }
    }
  }

  #endRow(): void {
    this.#cells.push(this.#cell);
    this.#cell = '';
    const cells = this.#cells;
    this.#cells = [];
    if (cells.length === 1 && cells[0].trim() === '') return; // blank line
    this.#row(
      cells.map((c) => c.trim()),
      this.#rowLine,
    );
  }

  #row(cells: string[], line: number): void {
    if (
      !this.#decided &&
      this.#header === null &&
      !this.#forceNoHeader &&
      cells.every((c) => parseNumber(c) === null)
    ) {
      this.#header = cells;
      return;
    }
    if (!this.#decided) this.#decide(cells, line);
    if (cells.length !== this.#width) {
      this.#fail(`line ${line} has ${cells.length} columns, line ${this.#firstDataLine} has ${this.#width}`);
    }
    let metadataColumn = 0;
    for (let c = 0; c < cells.length; c++) {
      const role = this.#roles[c];
      if (role.kind === 'metadata') {
        this.#metadata[metadataColumn++].push(cells[c]);
      } else if (role.kind === 'dimension') {
        this.#pushNumber(cells[c], line, c);
      } else {
        this.#pushVector(cells[c], line, c);
      }
    }
    this.#rows++;
  }

  #pushNumber(cell: string, line: number, column: number): void {
    const where = `line ${line}, column ${column + 1}`;
    if (cell === '') this.#fail(`${where} is empty`);
    const v = parseNumber(cell);
    if (v === null) this.#fail(`${where}: ${quoted(cell)} is not a number`);
    if (!Number.isFinite(v)) this.#fail(`${where} is ${describe(v)}`);
    this.#embedding.push(v);
  }

  #pushVector(cell: string, line: number, column: number): void {
    const where = `line ${line}, column ${column + 1}`;
    const inner = cell.replace(/^\[|\]$/g, '').trim();
    const parts = inner === '' ? [] : inner.split(/[\s,]+/);
    if (this.#rows === 0) this.#dims = parts.length;
    if (parts.length !== this.#dims)
      this.#fail(`${where}: the vector has ${parts.length} values, line ${this.#firstDataLine} has ${this.#dims}`);
    for (const p of parts) {
      const v = parseNumber(p);
      if (v === null) this.#fail(`${where}: ${quoted(p)} in the vector is not a number`);
      if (!Number.isFinite(v)) this.#fail(`${where}: the vector holds ${describe(v)}`);
      this.#embedding.push(v);
    }
  }

  #decide(cells: string[], line: number): void {
    this.#decided = true;
    this.#firstDataLine = line;
    this.#width = cells.length;
    if (this.#header && this.#header.length !== cells.length) {
      this.#fail(`the header has ${this.#header.length} columns, line ${line} has ${cells.length}`);
    }
    const names = this.#header ?? cells.map((_, i) => `column ${i + 1}`);
    const numeric = cells.map((c) => parseNumber(c) !== null);
    const vector = cells.findIndex((c) => /^\[.*\]$/.test(c));
    if (this.#metadataOnly) {
      this.#roles = cells.map(() => ({ kind: 'metadata' }));
    } else if (vector >= 0) {
      this.#roles = cells.map((_, i) => (i === vector ? { kind: 'vector' } : { kind: 'metadata' }));
    } else {
      const dimension = dimensionColumns(names, numeric, this.#header !== null);
      this.#roles = dimension.map((d) => (d ? { kind: 'dimension' } : { kind: 'metadata' }));
    }
    this.#dims = this.#roles.filter((r) => r.kind === 'dimension').length;
    this.#metadata = this.#roles.filter((r) => r.kind === 'metadata').map(() => []);
  }

  finish(): ParsedFile {
    if (this.#inQuotes && !this.#quotePending) this.#fail(`line ${this.#rowLine}: a quoted field is never closed`);
    this.#quotePending = false;
    this.#inQuotes = false;
    if (this.#cell !== '' || this.#cells.length > 0) this.#endRow();
    if (!this.#sawAnything) this.#fail('file is empty');
    if (this.#rows === 0) this.#fail('no data rows');
    const names = this.#header ?? this.#roles.map((_, i) => `column ${i + 1}`);
    const columns: Column[] = [];
    let m = 0;
    this.#roles.forEach((role, i) => {
      if (role.kind !== 'metadata') return;
      const values = this.#metadata[m++];
      const numbers = values.map(parseNumber);
      columns.push(
        numbers.every((v) => v !== null)
          ? { name: names[i], kind: 'number', values: Float64Array.from(numbers as number[]) }
          : { name: names[i], kind: 'string', values },
      );
    });
    const notes: string[] = [];
    const result: ParsedFile = {
      fileName: this.#fileName,
      columns,
      rows: this.#rows,
      notes,
      ...(this.#header ? { header: this.#header } : {}),
    };
    if (this.#dims > 0) {
      result.embeddings = { data: this.#embedding.toArray(), rows: this.#rows, cols: this.#dims };
      const dimensionNames = names.filter((_, i) => this.#roles[i].kind === 'dimension');
      if (dimensionNames.length === this.#dims) result.dimensionNames = dimensionNames;
      if (dimensionNames.length > 0 && this.#header) {
        notes.push(
          `${dimensionNames.length} embedding columns (${dimensionNames[0]} … ${dimensionNames.at(-1)}), ${columns.length} metadata column${columns.length === 1 ? '' : 's'}`,
        );
      }
    }
    return result;
  }
}

/** Parses text already in memory. */
export function parseDelimitedText(text: string, fileName: string, options: DelimitedOptions = {}): ParsedFile {
  const parser = new DelimitedParser(fileName, options.delimiter ?? null, options);
  parser.push(text);
  return parser.finish();
}

/** Streams a Blob/File through the parser, reporting progress and honouring `signal`. */
export async function parseDelimitedBlob(
  blob: Blob,
  fileName: string,
  options: ParseOptions & DelimitedOptions = {},
): Promise<ParsedFile> {
  const parser = new DelimitedParser(fileName, options.delimiter ?? null, options);
  const reader = blob.stream().pipeThrough(new TextDecoderStream()).getReader();
  let read = 0;
  for (;;) {
    if (options.signal?.aborted) await reader.cancel();
    checkAborted(options.signal, fileName);
    const { done, value } = await reader.read();
    if (done) break;
    parser.push(value);
    read += value.length; // characters: close to bytes for numeric text
    options.onProgress?.(Math.min(1, read / Math.max(1, blob.size)));
  }
  return parser.finish();
}
