// A lab's data source, for the labs that bring their own small tables (regression, classification): a
// bundled example from the core, or a CSV read in the worker ('parse-table') with a choice of columns.
// The lab says how a table and a choice of its columns become its data (`fromTable`, which throws a
// message naming the bad choice) and what else changes with new data (`adopted`, in the same batch);
// this module keeps the data, the table, the choice, the example and the last error, with two rules for
// all: on any problem the error is shown and the loaded data stay; and the data asked for last win — an
// example or CSV still on its way when the user asks for another (or a session brings its own) is
// dropped when it arrives, whatever order the answers come in.
import { batch, signal, type Signal } from '@preact/signals';
import type { ParsedTable } from '../data/table.ts';
import { uploadTable } from './table_upload.ts';

/** Where the data came from: a parsed CSV with its column choice, or a bundled example (E). */
export interface DataOrigin<C, E> {
  table: ParsedTable | null;
  choice: C | null;
  example: E | null;
}

export interface DataSourceOptions<D, C, E = unknown> {
  /** The lab's data from a table and a choice of its columns; throws when the choice cannot work. */
  fromTable(table: ParsedTable, choice: C): D;
  /** The choice a freshly read table starts with. */
  defaultChoice(table: ParsedTable): C;
  /** What else changes with new data (in the same batch as the data). */
  adopted?(next: D): void;
  /** Before new data are fetched or read (e.g. stop a running fit that would hold them up). */
  beforeLoad?(): void;
  /** After a CSV was adopted, in the same batch (e.g. forget what only an example held). */
  afterUpload?(): void;
  /** After an example was adopted, in the same batch (e.g. take the model the example is meant for). */
  afterExample?(example: E): void;
}

export interface DataSource<D, C, E> {
  data: Signal<D | null>;
  table: Signal<ParsedTable | null>;
  choice: Signal<C | null>;
  example: Signal<E | null>;
  error: Signal<string | null>;
  /** New data with where they came from; clears the error; a load still on its way is dropped. */
  adopt(next: D, from: DataOrigin<C, E>): void;
  /** Fetches an example (the lab's request) and adopts it unless other data were asked for meanwhile;
   * a failure is reported by `report`. */
  loadExample(fetch: () => Promise<{ data: D; example: E }>, report: (error: unknown) => void): Promise<void>;
  /** Whether any data were asked for (an example, a CSV, adopted data): the lab's first example is
   * loaded only when not, so a choice made while the lab starts is never replaced by the default. */
  requested(): boolean;
  /** Reads a CSV; on any problem the error is shown and the loaded data stay. */
  uploadCsv(file: File): Promise<void>;
  /** Another choice of columns of the loaded CSV; a bad one is shown, the data stay. */
  chooseColumns(next: C): void;
}

export function dataSource<D, C, E>(options: DataSourceOptions<D, C, E>): DataSource<D, C, E> {
  const data = signal<D | null>(null),
    table = signal<ParsedTable | null>(null),
    choice = signal<C | null>(null);
  const example = signal<E | null>(null),
    error = signal<string | null>(null);
  /** Counts what was asked for; a load adopts its answer only if nothing was asked for after it. */
  let asked = 0;
  const adoptNow = (next: D, from: DataOrigin<C, E>, then?: () => void): void => {
    batch(() => {
      data.value = next;
      table.value = from.table;
      choice.value = from.choice;
      example.value = from.example;
      error.value = null;
      options.adopted?.(next);
      then?.();
    });
  };
  return {
    data,
    table,
    choice,
    example,
    error,
    adopt(next, from) {
      asked += 1;
      adoptNow(next, from);
    },
    requested: () => asked > 0,
    async loadExample(fetch, report) {
      const mine = ++asked;
      options.beforeLoad?.();
      try {
        const loaded = await fetch();
        if (mine !== asked) return; // superseded: the user asked for other data meanwhile
        adoptNow(loaded.data, { table: null, choice: null, example: loaded.example }, () =>
          options.afterExample?.(loaded.example),
        );
      } catch (e) {
        if (mine === asked) report(e);
      }
    },
    async uploadCsv(file) {
      const mine = ++asked;
      options.beforeLoad?.();
      const problem = await uploadTable(file, (parsed) => {
        if (mine !== asked) return;
        const initial = options.defaultChoice(parsed);
        adoptNow(options.fromTable(parsed, initial), { table: parsed, choice: initial, example: null }, () =>
          options.afterUpload?.(),
        );
      });
      if (problem && mine === asked) error.value = problem;
    },
    chooseColumns(next) {
      const t = table.value;
      if (!t) return;
      try {
        const chosen = options.fromTable(t, next);
        asked += 1;
        adoptNow(chosen, { table: t, choice: next, example: null });
      } catch (e) {
        error.value = e instanceof Error ? e.message : String(e);
      }
    },
  };
}
