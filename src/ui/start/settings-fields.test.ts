/** Each run setting's own problem, as its field shows it (aria-invalid and the message beside it). */
import { describe, expect, it } from 'vitest';
import { fieldProblem, NUMBER_FIELDS, type NumberSetting } from './settings-fields.ts';

const field = (key: NumberSetting) => NUMBER_FIELDS.find((f) => f.key === key)!;

describe('fieldProblem', () => {
  it.each<[NumberSetting, number | null, string | null]>([
    ['maxSteps', 25, null],
    ['maxSteps', 1, null],
    ['maxSteps', 200, null],
    ['maxSteps', 0, '“Max steps” must be between 1 and 200.'],
    ['maxSteps', 201, '“Max steps” must be between 1 and 200.'],
    ['maxSteps', null, 'Fill in “Max steps”.'],
    ['temperature', Number.NaN, 'Fill in “Temperature”.'],
    ['temperature', 2.1, '“Temperature” must be between 0 and 2.'],
    ['contextTokens', 1024, '“Context window (tokens)” must be between 2048 and 131072.'],
    ['paceMs', -1, '“Pause between scripted steps (ms)” must be between 0 and 10000.'],
  ])('%s = %s → %s', (key, value, expected) => {
    expect(fieldProblem(field(key), value)).toBe(expected);
  });
});
