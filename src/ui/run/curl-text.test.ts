/**
 * "Copy as curl", run by a real shell: `curl` is replaced by a function that prints its
 * arguments, so the test reads back exactly the words a person's shell would pass to curl —
 * the URL, the headers with the key from the environment, and the body as JSON.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Step } from '../../worker/client.ts';
import { curlText, shellQuote } from './curl-text.ts';

const PRINT_ARGS = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n`;

/** The words the shell passes to curl when it runs `command`, with SLM_API_KEY set to `key`. */
function curlArgs(command: string, key: string): string[] {
  const out = execFileSync('sh', ['-c', PRINT_ARGS + command], { env: { PATH: process.env.PATH, SLM_API_KEY: key } });
  return out.toString('utf8').split('\0').slice(0, -1);
}

const messages: Step['messages'] = [
  { role: 'system', content: "You are a coding agent. Don't guess; read first." },
  { role: 'user', content: 'Fix `add` in src/math.js — it says $((1+1)) and "quotes", \\ and a\nnewline.' },
];
const exchange = {
  request: {
    model: 'qwen2.5-coder:1.5b',
    messages: { count: 2, chars: [47, 80] },
    temperature: 0,
    seed: 7,
    max_tokens: 512,
    stream: true,
    response_format: { type: 'json_schema', json_schema: { name: 'tool_call', schema: { type: 'object' } } },
  },
  response: { finish_reason: 'stop' },
};

describe('curlText', () => {
  it('asks the same endpoint with the same body, the messages in full, and the key only from the shell', () => {
    const text = curlText('openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b', { exchange, messages })!;
    expect(text).not.toContain('secret');
    const args = curlArgs(text, 'secret-key');
    expect(args).toEqual([
      'http://127.0.0.1:11434/v1/chat/completions',
      '-H',
      'content-type: application/json',
      '-H',
      'authorization: Bearer secret-key',
      '--data-binary',
      expect.any(String),
    ]);
    expect(JSON.parse(args[6]!)).toEqual({ ...exchange.request, messages });
  });

  it.each([
    ['a scripted model', 'scripted:starter'],
    ['a WebLLM model', 'webllm:Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC'],
    ['no model yet', null],
    ['an endpoint id without a URL', 'openai:#m'],
  ])('gives nothing for %s', (_what, id) => {
    expect(curlText(id, { exchange, messages })).toBeNull();
  });

  it('gives nothing for a step without a recorded request', () => {
    expect(curlText('openai:http://127.0.0.1:8080/v1#m', { messages })).toBeNull();
  });

  it('keeps a base URL with a path and a port, whatever the model name holds (a # too)', () => {
    const text = curlText('openai:https://example.org:8443/proxy/v1#org/model#2', { exchange, messages })!;
    expect(curlArgs(text, '')[0]).toBe('https://example.org:8443/proxy/v1/chat/completions');
  });
});

describe('shellQuote', () => {
  it('is read back by sh as exactly the text, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }).filter((s) => !s.includes('\0')),
        (text) => {
          expect(curlArgs(`curl ${shellQuote(text)}`, '')).toEqual([text]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it.each([
    ['', "''"],
    ["it's", "'it'\\''s'"],
    ['$HOME `x` "y"', `'$HOME \`x\` "y"'`],
  ])('%j is %s', (text, quoted) => expect(shellQuote(text)).toBe(quoted));
});
