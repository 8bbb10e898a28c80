// Rate limiting for work that follows the user's input (a dragged slider refits as it moves).

/** Runs `run` at most once every `ms`, and once more after the last call (a dragged slider refits
 * as it moves, and ends on its final value). */
export function throttled(ms: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(
      () => {
        last = Date.now();
        run();
      },
      Math.max(0, last + ms - Date.now()),
    );
  };
}
