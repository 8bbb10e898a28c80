// A box for a table wider than the room it gets (a phone, a narrow column): the table scrolls sideways
// inside the box instead of the page, and while columns are hidden past an edge the box says so — a
// shadow on that edge and a line above it ("Scroll sideways: 3 more columns →"). The box takes focus
// when it scrolls, so the keyboard's arrows scroll it too.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import './scroll_box.css';

/** What is hidden past each edge of a box that scrolls sideways (pixels, whole). */
export function hiddenSides(scrollLeft: number, scrollWidth: number, clientWidth: number) {
  const left = Math.max(0, Math.round(scrollLeft));
  const right = Math.max(0, Math.round(scrollWidth - clientWidth - scrollLeft));
  return { left: left > 1 ? left : 0, right: right > 1 ? right : 0 };
}

/** What `ref`'s box hides past each edge, kept up to date as it scrolls or resizes. */
export function useHiddenSides(ref: preact.RefObject<HTMLElement>): { left: number; right: number } {
  const [hidden, setHidden] = useState({ left: 0, right: 0 });
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () =>
      setHidden((h) => {
        const next = hiddenSides(box.scrollLeft, box.scrollWidth, box.clientWidth);
        return next.left === h.left && next.right === h.right ? h : next;
      });
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    box.addEventListener('scroll', measure, { passive: true });
    measure();
    return () => {
      observer.disconnect();
      box.removeEventListener('scroll', measure);
    };
  }, [ref]);
  return hidden;
}

/** The line above a box that hides columns (nothing when it hides none). */
export function ScrollCue({ hidden }: { hidden: { left: number; right: number } }) {
  if (hidden.left === 0 && hidden.right === 0) return null;
  return (
    <p class="scroll-cue" data-testid="scroll-cue" aria-hidden="true">
      {hidden.right > 0 ? 'Scroll sideways for the columns on the right →' : '← Scroll back for the first columns'}
    </p>
  );
}

/** Attributes of the `.scroll-box` around a box that hides `hidden` (its edges' shadows). */
export const hiddenAttributes = (hidden: { left: number; right: number }) => ({
  'data-hidden-left': hidden.left > 0 ? 'true' : undefined,
  'data-hidden-right': hidden.right > 0 ? 'true' : undefined,
});

export function ScrollBox({
  label,
  testId,
  children,
}: {
  /** What the box holds, for its accessible name ("the AUROC table"). */
  label: string;
  testId?: string;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const hidden = useHiddenSides(ref);
  const scrolls = hidden.left > 0 || hidden.right > 0;
  return (
    <div class="scroll-box" data-testid={testId} {...hiddenAttributes(hidden)}>
      <ScrollCue hidden={hidden} />
      <div
        class="scroll-box-inner"
        ref={ref}
        tabIndex={scrolls ? 0 : undefined}
        role={scrolls ? 'region' : undefined}
        aria-label={scrolls ? `${label}, scrolling sideways` : undefined}
      >
        {children}
      </div>
    </div>
  );
}
