// The embeddings the worker holds, as the page sees them: shared by every lab that works on the loaded
// dataset (probe, out-of-distribution, evaluation, compare) and by the shell that loads it.
import type { SpriteSheet } from '../../io/load_urls.ts';
import type { Column } from '../../io/table.ts';

export type DatasetRole = 'main' | 'ood';

export interface DatasetSummary {
  role: DatasetRole;
  name: string;
  files: { name: string; size: number }[];
  rows: number;
  cols: number;
  columns: Column[];
  notes: string[];
  /** Thumbnails of the rows (an Embedding Projector config's sprite sheet). */
  sprite?: SpriteSheet;
  /** The embeddings are read from their file as needed, not held in memory (io/streamed_dataset.ts). */
  streamed?: boolean;
}
