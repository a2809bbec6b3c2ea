import { describe, expect, it } from 'vitest';
import { parseModelSpec } from './model-spec.ts';

const IDS = ['Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC'];

describe('parseModelSpec', () => {
  it.each([
    ['gguf:https://example.org/m/tiny.gguf', { kind: 'gguf', url: 'https://example.org/m/tiny.gguf' }],
    ['webllm:Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC', { kind: 'webllm', modelId: IDS[0] }],
    [
      'openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b',
      { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:1.5b' },
    ],
  ])('%s', (spec, expected) => expect(parseModelSpec(spec, IDS)).toEqual(expected));

  it.each([
    ['gguf:model.gguf', /pick it under llama\.cpp/],
    ['webllm:Nope-MLC', /not a WebLLM catalog model/],
    ['openai:http://127.0.0.1:11434/v1', /openai:BASE_URL#MODEL/],
    ['scripted:run.json', /gguf:URL, webllm:ID or openai:BASE_URL#MODEL/],
    ['qwen', /not a model spec/],
  ])('%s is refused with a reason', (spec, reason) =>
    expect(parseModelSpec(spec, IDS)).toEqual({ reason: expect.stringMatching(reason) }),
  );
});
