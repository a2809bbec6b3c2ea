/**
 * chalk without colour, for the sandbox's bundle of `expect`: every style returns its text as
 * it is, however styles are chained (`chalk.bold.red(s)`), so failure messages read as plain
 * text — what ws_test shows the model, and what the tally parser reads.
 */

/** @param {...unknown} parts */
const plain = (...parts) => parts.join(' ');
/** @type {any} */
const chalk = new Proxy(plain, {
  get(target, key) {
    if (key === 'level') return 0;
    if (key === 'supportsColor') return false;
    if (typeof key === 'symbol') return Reflect.get(target, key);
    return chalk;
  },
});
export default chalk;
