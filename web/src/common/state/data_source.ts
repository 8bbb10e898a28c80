// A lab's data source, for the labs that bring their own small tables (regression, classification): a
// bundled example from the core, or a CSV read in the worker ('parse-table') with a choice of columns.
// The lab says how a table and a choice of its columns become its data (`fromTable`, which throws a
// message naming the bad choice) and what else changes with new data (`adopted`, in the same batch);
// this module keeps the data, the table, the choice, the example and the last error, with one rule for
// all: on any problem the error is shown and the loaded data stay.
import { batch, signal, type Signal } from '@preact/signals';
import type { ParsedTable } from '../../labs/regression/worker/protocol.ts';
import { uploadTable } from './table_upload.ts';

/** Where the data came from: a parsed CSV with its column choice, or a bundled example (E). */
export interface DataOrigin<C, E> {
  table: ParsedTable | null;
  choice: C | null;
  example: E | null;
}

export interface DataSourceOptions<D, C> {
  /** The lab's data from a table and a choice of its columns; throws when the choice cannot work. */
  fromTable(table: ParsedTable, choice: C): D;
  /** The choice a freshly read table starts with. */
  defaultChoice(table: ParsedTable): C;
  /** What else changes with new data (in the same batch as the data). */
  adopted?(next: D): void;
  /** Before new data are fetched or read (e.g. stop a running fit that would hold them up). */
  beforeLoad?(): void;
  /** After a CSV was adopted (e.g. forget what only an example held). */
  afterUpload?(): void;
}

export interface DataSource<D, C, E> {
  data: Signal<D | null>;
  table: Signal<ParsedTable | null>;
  choice: Signal<C | null>;
  example: Signal<E | null>;
  error: Signal<string | null>;
  /** New data with where they came from; clears the error. */
  adopt(next: D, from: DataOrigin<C, E>): void;
  /** Fetches an example (the lab's request) and adopts it; a failure is reported by `report`. */
  loadExample(fetch: () => Promise<{ data: D; example: E }>, report: (error: unknown) => void): Promise<void>;
  /** Reads a CSV; on any problem the error is shown and the loaded data stay. */
  uploadCsv(file: File): Promise<void>;
  /** Another choice of columns of the loaded CSV; a bad one is shown, the data stay. */
  chooseColumns(next: C): void;
}

export function dataSource<D, C, E>(options: DataSourceOptions<D, C>): DataSource<D, C, E> {
  const data = signal<D | null>(null), table = signal<ParsedTable | null>(null), choice = signal<C | null>(null);
  const example = signal<E | null>(null), error = signal<string | null>(null);
  const adopt = (next: D, from: DataOrigin<C, E>): void => {
    batch(() => {
      data.value = next;
      table.value = from.table;
      choice.value = from.choice;
      example.value = from.example;
      error.value = null;
      options.adopted?.(next);
    });
  };
  return {
    data, table, choice, example, error, adopt,
    async loadExample(fetch, report) {
      options.beforeLoad?.();
      try {
        const loaded = await fetch();
        adopt(loaded.data, { table: null, choice: null, example: loaded.example });
      } catch (e) {
        report(e);
      }
    },
    async uploadCsv(file) {
      options.beforeLoad?.();
      const problem = await uploadTable(file, (parsed) => {
        const initial = options.defaultChoice(parsed);
        adopt(options.fromTable(parsed, initial), { table: parsed, choice: initial, example: null });
        options.afterUpload?.();
      });
      if (problem) error.value = problem;
    },
    chooseColumns(next) {
      const t = table.value;
      if (!t) return;
      try {
        adopt(options.fromTable(t, next), { table: t, choice: next, example: null });
      } catch (e) {
        error.value = e instanceof Error ? e.message : String(e);
      }
    },
  };
}
