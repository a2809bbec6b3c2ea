export { capitalize, slugify, truncate, wordCount } from './strings.js';
export { average, clamp, range, sum } from './numbers.js';
