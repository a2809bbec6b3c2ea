// @ts-check
/**
 * node:assert/strict for the offline JavaScript sandbox: the strict assert as the default
 * export, and `equal`/`deepEqual` as their strict forms. Sandbox guest code.
 */
import { strict } from 'node:assert';

export {
  ok,
  fail,
  ifError,
  match,
  doesNotMatch,
  throws,
  doesNotThrow,
  rejects,
  doesNotReject,
  strictEqual,
  notStrictEqual,
  deepStrictEqual,
  notDeepStrictEqual,
  strictEqual as equal,
  notStrictEqual as notEqual,
  deepStrictEqual as deepEqual,
  notDeepStrictEqual as notDeepEqual,
  AssertionError,
  strict,
} from 'node:assert';
export default strict;
