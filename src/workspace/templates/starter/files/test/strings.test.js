import { test } from 'node:test';
import assert from 'node:assert/strict';
import { capitalize, slugify, truncate, wordCount } from '../src/strings.js';

test('capitalize upper-cases the first character only', () => {
  assert.equal(capitalize('hello world'), 'Hello world');
  assert.equal(capitalize(''), '');
});

test('slugify joins lower-case words with dashes', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
  assert.equal(slugify('  Many   spaces  '), 'many-spaces');
});

test('truncate leaves short text alone', () => {
  assert.equal(truncate('short', 10), 'short');
  assert.equal(truncate('exactly8', 8), 'exactly8');
});

test('truncate never returns more than max characters', () => {
  assert.equal(truncate('hello world', 8), 'hello w…');
  assert.equal(truncate('hello world', 8).length, 8);
});

test('wordCount counts whitespace-separated words', () => {
  assert.equal(wordCount('  two words '), 2);
  assert.equal(wordCount('   '), 0);
});
