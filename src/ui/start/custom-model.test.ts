/** The custom model's fields: one row per URL rule, then the choice they give. */
import { describe, expect, it } from 'vitest';
import { customModel, customUrlProblem } from './custom-model.ts';

const BASE = 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC';

describe('customUrlProblem', () => {
  it.each<[string, string, RegExp | null]>([
    ['empty', '  ', /^Give the custom model's URL/],
    ['relative', 'models/M', /must be absolute and start with https:\/\//],
    ['no scheme', 'example.org/M', /must be absolute/],
    [
      'plain http to another host',
      'http://example.org/M',
      /must be absolute and start with https:\/\/ \(or http:\/\/localhost\)/,
    ],
    ['another scheme', 'ftp://example.org/M', /must be absolute/],
    ['https', 'https://example.org/M-q4f16_1-MLC', null],
    ['http on localhost', 'http://localhost:8000/M', null],
    ['http on 127.0.0.1', 'http://127.0.0.1:8000/M', null],
    ['http on [::1]', 'http://[::1]:8000/M', null],
    ['surrounding spaces', ' https://example.org/M ', null],
  ])('%s', (_label, url, expected) => {
    const problem = customUrlProblem(url);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });

  it('says which files the URL must serve', () => {
    expect(customUrlProblem('http://example.org/M')).toMatch(
      /mlc-chat-config\.json, the tokenizer files, tensor-cache\.json and the weight shards it lists, under resolve\/main\//,
    );
  });
});

describe('customModel', () => {
  it.each<[string, { url: string; baseModelId: string }, object]>([
    ['a bad URL', { url: 'x', baseModelId: BASE }, { reason: expect.stringMatching(/must be absolute/) }],
    [
      'a base model outside the catalog',
      { url: 'https://h/M', baseModelId: 'Other-MLC' },
      { reason: expect.stringMatching(/^Pick the base model/) },
    ],
    [
      'a good pair (URL trimmed)',
      { url: ' https://h/M ', baseModelId: BASE },
      { id: 'custom:https://h/M', url: 'https://h/M', baseModelId: BASE },
    ],
  ])('%s', (_label, fields, expected) => {
    expect(customModel({ enabled: true, ...fields }, [BASE])).toEqual(expected);
  });
});
