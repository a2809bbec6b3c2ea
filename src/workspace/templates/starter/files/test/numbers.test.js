import { test } from 'node:test';
import assert from 'node:assert/strict';
import { average, clamp, range, sum } from '../src/numbers.js';

test('clamp keeps a value within its bounds', () => {
  assert.equal(clamp(15, 0, 10), 10);
  assert.equal(clamp(-3, 0, 10), 0);
  assert.equal(clamp(4, 0, 10), 4);
  assert.throws(() => clamp(1, 10, 0), RangeError);
});

test('sum adds a list, and an empty list sums to 0', () => {
  assert.equal(sum([1, 2, 3]), 6);
  assert.equal(sum([]), 0);
});

test('average is the arithmetic mean', () => {
  assert.equal(average([2, 4, 9]), 5);
  assert.throws(() => average([]), RangeError);
});

test('range excludes its end', () => {
  assert.deepEqual(range(1, 4), [1, 2, 3]);
  assert.deepEqual(range(3, 3), []);
});
