// What the labs' fields take from what a user types, and when a certificate on screen no longer answers
// the fields (issue 36, item 7): "abc", "-3" or "0" are refused with a sentence naming the field and the
// values it accepts, never read as 0 or clamped; a refused field or a changed γ marks the certificate.
import { describe, expect, it } from 'vitest';
import { parseCount, parsePositive } from '../../web/src/common/ui/number_text.ts';
import { certificateMismatch } from '../../web/src/labs/classification/state/certify_store.ts';
import { boundSummary } from '../../web/src/labs/classification/state/bound_summary.ts';
import { movedCoordinates } from '../../web/src/labs/classification/ui/certify_text.ts';

describe('parsePositive (ε, s, kernel parameters)', () => {
  it('takes finite numbers > 0 exactly as typed', () => {
    expect(parsePositive(' 0.25 ', 'ε')).toEqual({ value: 0.25 });
    expect(parsePositive('1e-3', 'ε')).toEqual({ value: 0.001 });
  });
  it.each(['abc', '-1', '0', '', 'Infinity', 'NaN'])('refuses %j naming the field and the range', (typed) => {
    const parsed = parsePositive(typed, 's (observation strength)');
    expect(parsed).toHaveProperty('problem');
    const problem = (parsed as { problem: string }).problem;
    expect(problem).toContain('s (observation strength)');
    expect(problem).toContain('greater than 0');
    expect(problem).toContain(typed.trim() === '' ? 'nothing' : `'${typed}'`);
  });
});

describe('parseCount (observations per class)', () => {
  it('takes whole numbers in range', () => {
    expect(parseCount('0', 'Per class', 0, 100000)).toEqual({ value: 0 });
    expect(parseCount('12', 'Per class', 0, 100000)).toEqual({ value: 12 });
    expect(parseCount('100000', 'Per class', 0, 100000)).toEqual({ value: 100000 });
  });
  it.each(['abc', '-3', '2.5', '', '100001'])('refuses %j instead of reading it as 0', (typed) => {
    const parsed = parseCount(typed, 'Per class', 0, 100000);
    expect(parsed).toHaveProperty('problem');
    expect((parsed as { problem: string }).problem).toContain('Per class');
    expect((parsed as { problem: string }).problem).toContain('whole number from 0 to 100000');
  });
});

describe('certificateMismatch', () => {
  const shown = { settings: { gamma: 0.2, dims: [0, 1] }, point: [0.5, -0.25] };
  it('is null while the fields are those the certificate was computed with', () => {
    expect(certificateMismatch(shown, { gamma: 0.2, dims: [0, 1] }, [0.5, -0.25], [])).toBeNull();
  });
  it('names a refused field, a new γ, other coordinates and another x*', () => {
    expect(certificateMismatch(shown, { gamma: 0.2, dims: [0, 1] }, [0.5, -0.25], ['gamma: …'])).toContain(
      'a field holds a value that was refused',
    );
    expect(certificateMismatch(shown, { gamma: 0.3, dims: [0, 1] }, [0.5, -0.25], [])).toContain('γ is now 0.3');
    expect(certificateMismatch(shown, { gamma: 0.2, dims: [1] }, [0.5, -0.25], [])).toContain('moving coordinates');
    expect(certificateMismatch(shown, { gamma: 0.2, dims: [0, 1] }, [0, 0], [])).toContain('x* has changed');
    expect(certificateMismatch(shown, { gamma: 0.3, dims: [0, 1] }, null, [])).toContain('for γ = 0.2');
  });
});

describe('boundSummary (the softmax fit on the 3/5/8 digits)', () => {
  it('counts and names the length-scales on the upper bound in one sentence, and keeps every one', () => {
    // 64 pixels; pixels 1-38 (numbered from 1) on the upper bound 1e5, the others learned inside.
    const ls = Array.from({ length: 64 }, (_, j) => (j < 38 ? 1e5 : 2.5));
    const s = boundSummary(3.1, ls);
    expect(s.sentences).toHaveLength(1);
    expect(s.sentences[0]).toContain('38 of 64 length-scales (inputs 1, 2, 3, 4, 5, 6, 7, 8 and 30 more)');
    expect(s.sentences[0]).toContain('upper bound 1e5');
    expect(s.sentences[0]).toContain('ignores them');
    expect(s.all).toHaveLength(38);
    expect(s.all[37]).toBe("length-scale 38 stopped at the fit's upper bound 1e5");
  });
  it('says nothing when no value is on a bound, and names the signal variance on one', () => {
    expect(boundSummary(3.1, [2, 3])).toEqual({ sentences: [], all: [] });
    const s = boundSummary(1e5, [2]);
    expect(s.all).toEqual(["signal variance stopped at the fit's upper bound 1e5"]);
  });
});

describe('movedCoordinates (a refuted certificate on 64 pixels)', () => {
  it('names only the coordinates that move, with their change, and how many stay', () => {
    const names = Array.from({ length: 64 }, (_, j) => `x${j + 1}`);
    const point = new Array(64).fill(0.25);
    const witness = point.slice();
    witness[2] = 0.5;
    witness[40] = 0;
    const text = movedCoordinates(names, witness, point);
    expect(text).toBe('x3 = 0.5000 (+0.2500), x41 = 0.0000 (−0.2500) (the other 62 coordinates as at x*)');
  });
  it('keeps every coordinate of a 2-D point', () => {
    expect(movedCoordinates(['x1', 'x2'], [0.5, 1], [0.5, 0])).toBe('x1 = 0.5000, x2 = 1.0000');
  });
});
