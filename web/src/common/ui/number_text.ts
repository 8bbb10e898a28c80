// What a user typed into a number field, read strictly: a value the field can take, or a sentence that
// names the field, what was typed and the values it accepts. A field that gets a problem keeps the text
// on screen and shows the sentence; nothing the user did not type (0 for "abc", a clamp of "-3") is ever
// taken in its place.

export type Parsed = { value: number } | { problem: string };

const shown = (text: string) => (text.trim() === '' ? 'nothing' : `'${text.trim()}'`);

/** A finite number > 0 (the probe's ε and s, kernel parameters). */
export function parsePositive(text: string, name: string): Parsed {
  const t = text.trim();
  const v = t === '' ? NaN : Number(t);
  if (Number.isFinite(v) && v > 0) return { value: v };
  return { problem: `${name}: ${shown(text)} is not accepted; give a number greater than 0 (e.g. 0.5)` };
}

/** A whole number in [min, max] (counts: observations per class). */
export function parseCount(text: string, name: string, min: number, max: number): Parsed {
  const t = text.trim();
  const v = t === '' ? NaN : Number(t);
  if (Number.isInteger(v) && v >= min && v <= max) return { value: v };
  return { problem: `${name}: ${shown(text)} is not accepted; give a whole number from ${min} to ${max}` };
}
