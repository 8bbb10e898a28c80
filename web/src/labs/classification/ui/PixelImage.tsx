// An image input (the digits' 8 × 8 pixels in [0, 1]) drawn on a canvas, ink dark on white as the digits
// are seen; with `changedFrom`, the pixels that differ from that image are outlined in vermillion (a
// refuted certificate's witness beside x*).
import { useEffect, useRef } from 'preact/hooks';

export function PixelImage({
  pixels,
  side,
  label,
  changedFrom,
  testId,
  scale = 10,
}: {
  pixels: ArrayLike<number>;
  side: number;
  label: string;
  changedFrom?: ArrayLike<number>;
  testId?: string;
  scale?: number;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const ctx = ref.current?.getContext('2d');
    if (!ctx) return;
    for (let j = 0; j < side * side; j++) {
      const v = Math.min(1, Math.max(0, pixels[j]));
      const g = Math.round(255 * (1 - v));
      ctx.fillStyle = `rgb(${g}, ${g}, ${g})`;
      ctx.fillRect((j % side) * scale, Math.floor(j / side) * scale, scale, scale);
    }
    if (changedFrom) {
      ctx.strokeStyle = '#d55e00';
      ctx.lineWidth = 2;
      for (let j = 0; j < side * side; j++) {
        if (pixels[j] !== changedFrom[j])
          ctx.strokeRect((j % side) * scale + 1, Math.floor(j / side) * scale + 1, scale - 2, scale - 2);
      }
    }
  }, [pixels, side, changedFrom, scale]);
  return (
    <canvas
      ref={ref}
      width={side * scale}
      height={side * scale}
      role="img"
      aria-label={label}
      data-testid={testId}
      style={{ border: '1px solid var(--line)' }}
    />
  );
}
