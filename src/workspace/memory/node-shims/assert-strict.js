// @ts-check
/**
 * node:assert/strict for the offline JavaScript sandbox: everything node:assert exports, with
 * `equal`/`notEqual`/`deepEqual`/`notDeepEqual` as their strict forms (a module's own exports
 * shadow the same names from `export *`) and the strict assert as the default export.
 * Sandbox guest code.
 */
export * from 'node:assert';
export {
  strictEqual as equal,
  notStrictEqual as notEqual,
  deepStrictEqual as deepEqual,
  notDeepStrictEqual as notDeepEqual,
  strict as default,
} from 'node:assert';
