// A row's thumbnail from the dataset's sprite sheet (an Embedding Projector config's sprite.imagePath):
// the sheet as a CSS background, positioned on the row's cell and scaled to `size` pixels.
import type { SpriteSheet } from '../../io/load_urls.ts';
import { dataset } from '../state/session_store.ts';

// One object URL for the sheet on show; the previous one is released when the data changes.
let shown: { image: Blob; url: string } | null = null;
function sheetUrl(image: Blob): string {
  if (shown?.image !== image) {
    if (shown) URL.revokeObjectURL(shown.url);
    shown = { image, url: URL.createObjectURL(image) };
  }
  return shown.url;
}

/** The loaded dataset's sprite sheet, or null. */
export function currentSprite(): SpriteSheet | null {
  return dataset.value?.sprite ?? null;
}

export function Thumbnail({ row, size }: { row: number; size: number }) {
  const sheet = currentSprite();
  if (!sheet || row < 0 || row >= (dataset.value?.rows ?? 0)) return null;
  const [w, h] = sheet.singleImageDim;
  const scale = size / Math.max(w, h);
  const x = (row % sheet.columns) * w * scale,
    y = Math.floor(row / sheet.columns) * h * scale;
  return (
    <span
      class="thumbnail"
      role="img"
      aria-label={`thumbnail of row ${row}`}
      data-row={row}
      style={{
        width: `${w * scale}px`,
        height: `${h * scale}px`,
        backgroundImage: `url(${sheetUrl(sheet.image)})`,
        backgroundPosition: `-${x}px -${y}px`,
        backgroundSize: `${sheet.width * scale}px ${sheet.height * scale}px`,
      }}
    />
  );
}
