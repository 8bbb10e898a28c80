// The arrow keys on a plot: the selection moves to the nearest point in the key's direction on screen
// (y pointing down), points off the line counting twice; nothing that way keeps it; a first press
// starts at the point nearest the centre; only the subset's points are reachable.
import { describe, expect, it } from 'vitest';
import { keyboardStep } from '../../web/src/common/plots/keyboard_step.ts';

// Data (x, y) to pixels: x * 10, and y flipped (pixel y = 100 - 10 y), as a plot's layout does.
const X = { offset: 0, slope: 10 },
  Y = { offset: 100, slope: -10 };
//              0  1  2  3   4  5
const points = { x: [5, 7, 6, 5, 3, 9], y: [5, 5, 8, 2, 5, 6] };
const centre: [number, number] = [50, 50];

describe("moving a plot's selection with the arrow keys", () => {
  it('moves to the nearest point in the direction, on screen', () => {
    expect(keyboardStep(points, X, Y, 0, 'ArrowRight', centre)).toBe(1); // (7, 5): 20 px along, none across
    expect(keyboardStep(points, X, Y, 0, 'ArrowLeft', centre)).toBe(4);
    expect(keyboardStep(points, X, Y, 0, 'ArrowUp', centre)).toBe(2); // y = 8 is up on screen
    expect(keyboardStep(points, X, Y, 0, 'ArrowDown', centre)).toBe(3);
  });

  it('counts distance off the line twice and ignores points more than 45° off it', () => {
    // From point 1 (7, 5) rightwards: point 5 (9, 6) is 20 along and 10 across (cost 40); nothing else is to the right.
    expect(keyboardStep(points, X, Y, 1, 'ArrowRight', centre)).toBe(5);
    // From point 1 upwards: point 2 (6, 8) is 30 up and 10 across (cost 50); point 5 is 10 up and 20 across: more than 45°.
    expect(keyboardStep(points, X, Y, 1, 'ArrowUp', centre)).toBe(2);
  });

  it('keeps the selection when nothing lies that way, and starts at the centre', () => {
    expect(keyboardStep(points, X, Y, 5, 'ArrowRight', centre)).toBe(5);
    expect(keyboardStep(points, X, Y, null, 'ArrowLeft', centre)).toBe(0);
    expect(keyboardStep({ x: [], y: [] }, X, Y, null, 'ArrowLeft', centre)).toBe(null);
  });

  it('reaches only the subset and skips points off the plot (NaN)', () => {
    expect(keyboardStep({ ...points, subset: [0, 5, 4] }, X, Y, 0, 'ArrowRight', centre)).toBe(5);
    expect(keyboardStep({ x: [5, NaN, 8], y: [5, 5, 5] }, X, Y, 0, 'ArrowRight', centre)).toBe(2);
  });
});
