/**
 * The parts of jest-message-util that `expect`'s toThrow messages use, for the sandbox's bundle
 * of it: the real package reads source files from disk for code frames, which the sandbox
 * cannot. The message and the stack are shown as they are, without code frames.
 */

/** @param {string} text */
const withoutBlankErrorLine = (text) => text.replace(/^\s*Error:?\s*$/m, '').replace(/^\n+|\n+$/g, '');

/** The message of an error's text and the stack after it, as jest-message-util splits them. */
export function separateMessageFromStack(/** @type {string} */ content) {
  if (!content) return { message: '', stack: '' };
  const m = /^(?:Error: )?([\S\s]*?(?=\n\s*at\s.*:\d*:\d*)|\s*.*)([\S\s]*)$/.exec(content);
  return m
    ? { message: withoutBlankErrorLine(m[1] ?? ''), stack: withoutBlankErrorLine(m[2] ?? '') }
    : { message: content, stack: '' };
}

/** Stack lines, indented as Jest indents them. */
export function formatStackTrace(/** @type {string} */ stack) {
  return stack
    .split('\n')
    .filter((l) => /^\s*at /.test(l))
    .map((l) => `      ${l.trim()}`)
    .join('\n');
}

/** An error thrown where a test expected none: its message and stack. */
export function formatExecError(/** @type {unknown} */ error) {
  if (error instanceof Error) {
    const { message, stack } = separateMessageFromStack(error.stack ?? `${error.name}: ${error.message}`);
    return `  ${message}${stack ? `\n\n${formatStackTrace(stack)}` : ''}`;
  }
  return `  ${String(error)}`;
}
