// What the certify forms make of what is typed: a number ≥ min or the problem in words (empty is not 0,
// '-1' is not the old value), a list of gammas or the entry that is not one (never the default list),
// and the classification lab's refusal to certify or sweep while a field it reads has a problem or no
// coordinate moves.
import { afterEach, describe, expect, it } from 'vitest';
import {
  fieldProblems,
  parseMinNumber,
  parseNumberList,
  problemsIn,
  setFieldProblem,
} from '../../web/src/common/state/field_problems.ts';
import {
  ROBUSTNESS_FORM,
  robustnessProblems,
  robustnessSettings,
} from '../../web/src/labs/classification/state/certify_store.ts';

afterEach(() => {
  fieldProblems.value = {};
});

describe('typed numbers', () => {
  it('takes a finite number at or above the minimum', () => {
    expect(parseMinNumber('0', 0, 'gamma')).toEqual({ value: 0 });
    expect(parseMinNumber(' 0.25 ', 0, 'gamma')).toEqual({ value: 0.25 });
    expect(parseMinNumber('-3', -Infinity, 'x* x1')).toEqual({ value: -3 });
  });

  it('says what is wrong with anything else, naming the field', () => {
    expect(parseMinNumber('', 0, 'gamma')).toEqual({ problem: 'gamma is empty: give a number ≥ 0' });
    expect(parseMinNumber('-1', 0, 'gamma')).toEqual({ problem: 'gamma: -1 is below 0' });
    expect(parseMinNumber('abc', 0, 'gamma')).toEqual({ problem: "gamma: 'abc' is not a number" });
    expect(parseMinNumber('Infinity', 0, 'gamma')).toEqual({ problem: "gamma: 'Infinity' is not a number" });
    expect(parseMinNumber('', -Infinity, 'x* x1')).toEqual({ problem: 'x* x1 is empty: give a number' });
  });

  it('reads a list, or names the first entry that is not a number ≥ min', () => {
    expect(parseNumberList('0, 0.1; 0.2 1.4', 0, 'sweep gammas')).toEqual({ value: [0, 0.1, 0.2, 1.4] });
    expect(parseNumberList('0, abc, 0.5', 0, 'sweep gammas')).toEqual({
      problem: "sweep gammas: 'abc' is not a number ≥ 0",
    });
    expect(parseNumberList('0, -0.5', 0, 'sweep gammas')).toEqual({
      problem: "sweep gammas: '-0.5' is not a number ≥ 0",
    });
    expect(parseNumberList(' , ', 0, 'sweep gammas')).toEqual({
      problem: 'sweep gammas is empty: give at least one number ≥ 0',
    });
  });
});

describe('the classification lab refuses to certify what the user did not give', () => {
  const settings = () => ({ ...robustnessSettings.value, dims: [0, 1] });

  it('lists the problems of the fields each action reads', () => {
    expect(robustnessProblems('certify', settings())).toEqual([]);
    setFieldProblem(ROBUSTNESS_FORM, 'gamma', 'gamma is empty: give a number ≥ 0');
    setFieldProblem(ROBUSTNESS_FORM, 'sweep gammas', "sweep gammas: 'abc' is not a number ≥ 0");
    expect(robustnessProblems('certify', settings())).toEqual(['gamma is empty: give a number ≥ 0']);
    expect(robustnessProblems('sweep', settings())).toEqual(["sweep gammas: 'abc' is not a number ≥ 0"]);
    setFieldProblem(ROBUSTNESS_FORM, 'x* x2', "x* x2: 'e' is not a number");
    expect(robustnessProblems('sweep', settings())).toEqual([
      "sweep gammas: 'abc' is not a number ≥ 0",
      "x* x2: 'e' is not a number",
    ]);
    // A corrected field clears its problem.
    setFieldProblem(ROBUSTNESS_FORM, 'gamma', null);
    expect(problemsIn(ROBUSTNESS_FORM)).toHaveLength(2);
    expect(robustnessProblems('certify', settings())).toEqual(["x* x2: 'e' is not a number"]);
  });

  it('refuses when no coordinate moves', () => {
    expect(robustnessProblems('certify', { ...settings(), dims: [] })).toEqual([
      'no moving coordinate is ticked: tick at least one (with none, the box is x* alone)',
    ]);
  });
});
