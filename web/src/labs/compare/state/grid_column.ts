// The column the Compare lab's grid ("every value of") offers first.
import { distinctValues } from '../../../common/state/session.ts';
import type { Column } from '../../../io/table.ts';

/**
 * The column the grid offers first: the first with 2 to `most` values (the grid's limit) (a label such as "digit"),
 * not an index or an id column whose every row is its own value; the first column when none has so few.
 */
export function gridColumn(columns: readonly Column[], most: number): Column | undefined {
  return (
    columns.find((c) => {
      const n = distinctValues(c, most + 1).length;
      return n >= 2 && n <= most;
    }) ?? columns[0]
  );
}
