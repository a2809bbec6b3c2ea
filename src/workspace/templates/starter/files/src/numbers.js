/**
 * Number helpers.
 */

/** Keeps value within [min, max]: clamp(15, 0, 10) === 10. */
export function clamp(value, min, max) {
  if (min > max) throw new RangeError(`clamp: min ${min} is greater than max ${max}`);
  return Math.min(max, Math.max(min, value));
}

/** Adds up a list of numbers; the sum of an empty list is 0. */
export function sum(values) {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** The arithmetic mean; throws for an empty list, which has no mean. */
export function average(values) {
  if (values.length === 0) throw new RangeError('average: the list is empty');
  return sum(values) / values.length;
}

/** Integers from start up to, but not including, end: range(1, 4) is [1, 2, 3]. */
export function range(start, end) {
  const out = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
}
