/**
 * String helpers.
 */

/** Upper-cases the first character: capitalize('hello') === 'Hello'. */
export function capitalize(text) {
  if (text === '') return text;
  return text[0].toUpperCase() + text.slice(1);
}

/** Lower-case words joined by dashes: slugify('Hello, World!') === 'hello-world'. */
export function slugify(text) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Shortens text to at most `max` characters. When the text is cut, the last of those
 * characters is an ellipsis: truncate('hello world', 8) === 'hello w…'.
 */
export function truncate(text, max) {
  if (text.length <= max) return text;
  return text.slice(0, max) + '…';
}

/** Number of whitespace-separated words: wordCount('  two words ') === 2. */
export function wordCount(text) {
  const words = text.trim().split(/\s+/);
  return words[0] === '' ? 0 : words.length;
}
