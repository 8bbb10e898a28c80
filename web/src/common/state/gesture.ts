// A pointer gesture on a control (a slider held and dragged): while one lasts, the session's changes
// of one kind share one undo step however long the page takes between them (session_store.ts commit).
// Keyboard changes and changes without a gesture share a step when they come less than a second apart.

let since: number | null = null;
let sequence = 0;

/** The gesture under way: its number (each gesture its own), or null. */
export function currentGesture(): number | null {
  return since === null ? null : sequence;
}

/** Starts a gesture; it ends at the pointer's release or cancel, wherever the pointer is then. */
export function startPointerGesture(): void {
  sequence += 1;
  since = Date.now();
  const end = () => {
    since = null;
    window.removeEventListener('pointerup', end);
    window.removeEventListener('pointercancel', end);
  };
  window.addEventListener('pointerup', end);
  window.addEventListener('pointercancel', end);
}
