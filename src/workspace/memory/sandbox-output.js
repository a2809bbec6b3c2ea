// @ts-check
/**
 * The sandbox runtimes' bounded output stream (js-sandbox-runtime.js, py-sandbox-runtime.js): the
 * first `headChars` go out as written; after that only a rolling tail of `tailChars` is kept and
 * sent at most every 50 ms and at the end, so a program that prints without end costs the host
 * two bounded strings. The runtimes are loaded as source text, so this module's text is put in
 * place of their import of it (sandbox-source.ts); it uses only built-ins captured when it loads,
 * before any program exists, so a program that patches prototypes cannot change it.
 */

/** @typedef {{ post(message: { type: 'head', text: string } | { type: 'tail', text: string, total: number }): void }} OutputIo */

export const makeOutput = (() => {
  const { bind: fnBind, call: fnCall } = Function.prototype;
  const slice = /** @type {(s: string, start: number, end?: number) => string} */ (
    fnBind.call(fnCall, String.prototype.slice)
  );
  const charCodeAt = /** @type {(s: string, i: number) => number} */ (fnBind.call(fnCall, String.prototype.charCodeAt));
  const now = Date.now;
  const max = Math.max;

  /**
   * UTF-8 length of `s`: 2 bytes below U+0800, 3 above, 4 for a surrogate pair (2 per half).
   * @param {string} s
   */
  const utf8Length = (s) => {
    let n = s.length;
    for (let i = 0; i < s.length; i++) {
      const c = charCodeAt(s, i);
      if (c >= 0x80) n += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
    }
    return n;
  };

  /**
   * @param {OutputIo} io
   * @param {number} headChars
   * @param {number} tailChars
   */
  return (io, headChars, tailChars) => {
    let headLeft = headChars;
    let tail = '';
    let total = 0;
    let dirty = false;
    let last = 0;
    let closed = false;
    const flush = () => {
      if (!dirty) return;
      dirty = false;
      last = now();
      io.post({ type: 'tail', text: tail, total });
    };
    return {
      /** @param {string} text */
      write(text) {
        if (closed || text === '') return;
        total += utf8Length(text);
        if (headLeft > 0) {
          const part = slice(text, 0, headLeft);
          headLeft -= part.length;
          io.post({ type: 'head', text: part });
          text = slice(text, part.length);
          if (text === '') return;
        }
        const joined = tail + text;
        tail = slice(joined, max(0, joined.length - tailChars));
        dirty = true;
        if (now() - last > 50) flush();
      },
      flush,
      close() {
        flush();
        closed = true;
      },
    };
  };
})();
