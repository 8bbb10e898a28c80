// Which named numeric columns are embedding dimensions and which are metadata, shared by the
// delimited, JSON and Parquet readers:
//   numeric columns named like dimensions ("0", "17", "dim_3", "x12", "emb5", "feature_9") when any
//   exist; otherwise every numeric column except metadata-looking names (label, y, target, class, ...).

export const DIMENSION_NAME = /^[A-Za-z_-]{0,12}\d+$/;
export const METADATA_NAME =
  /^(labels?|y|target|class|classes|category|concept|id|idx|index|name|split|digit|is_.*|ood|text|caption|file(name)?|path)$/i;

/** For each column (name, numeric?), whether it is an embedding dimension. */
export function dimensionColumns(names: string[], numeric: boolean[], hasHeader = true): boolean[] {
  if (hasHeader && names.some((n, i) => numeric[i] && DIMENSION_NAME.test(n))) {
    return names.map((n, i) => numeric[i] && DIMENSION_NAME.test(n));
  }
  return names.map((n, i) => numeric[i] && !(hasHeader && METADATA_NAME.test(n)));
}
