// What the user typed that cannot be used, by form and field: a field that refuses a value keeps what was
// typed on screen and says why here, instead of quietly keeping (or defaulting to) a value the user did
// not give; an action of that form refuses to run while one of its fields has a problem, and says which.
// Used by the certify forms of the Probe and Classification tabs.
import { signal } from '@preact/signals';

/** form → field → what is wrong with it. */
export const fieldProblems = signal<Record<string, Record<string, string>>>({});

export function setFieldProblem(form: string, field: string, problem: string | null): void {
  const current = fieldProblems.value[form] ?? {};
  if ((current[field] ?? null) === problem) return;
  const next = { ...current };
  if (problem === null) delete next[field];
  else next[field] = problem;
  fieldProblems.value = { ...fieldProblems.value, [form]: next };
}

/** The problems of `form` (of the fields `which` keeps, when given), in the order they were found. */
export function problemsIn(form: string, which?: (field: string) => boolean): string[] {
  const all = fieldProblems.value[form] ?? {};
  return Object.entries(all)
    .filter(([field]) => !which || which(field))
    .map(([, problem]) => problem);
}

/** A number typed into the field `name`: finite and ≥ min, or the problem with it in words. */
export function parseMinNumber(text: string, min: number, name: string): { value: number } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: `${name} is empty: give a number${Number.isFinite(min) ? ` ≥ ${min}` : ''}` };
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return { problem: `${name}: '${trimmed}' is not a number` };
  if (value < min) return { problem: `${name}: ${trimmed} is below ${min}` };
  return { value };
}

/** A list of numbers ≥ min ("0, 0.1, 0.2"), or the problem naming the first entry that is not one. */
export function parseNumberList(text: string, min: number, name: string): { value: number[] } | { problem: string } {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0) return { problem: `${name} is empty: give at least one number ≥ ${min}` };
  const values: number[] = [];
  for (const part of parts) {
    const parsed = parseMinNumber(part, min, name);
    if ('problem' in parsed) return { problem: `${name}: '${part}' is not a number ≥ ${min}` };
    values.push(parsed.value);
  }
  return { value: values };
}
