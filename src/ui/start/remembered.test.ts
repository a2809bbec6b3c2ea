import { describe, expect, it } from 'vitest';
import { loadRemembered, saveRemembered, type KeyValueStore } from './remembered.ts';

function memory(initial: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...initial };
  return { data, getItem: (k) => data[k] ?? null, setItem: (k, v) => void (data[k] = v) };
}

describe('remembered start fields', () => {
  it('round-trips the endpoint and the GGUF URL, and never an API key', () => {
    const store = memory();
    saveRemembered(store, {
      endpoint: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'm' },
      ggufUrl: 'https://h/x.gguf',
    });
    // An endpoint saved without the tools-API choice reads back with it off.
    expect(loadRemembered(store)).toEqual({
      endpoint: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', toolsApi: false },
      ggufUrl: 'https://h/x.gguf',
    });
    expect(Object.values(store.data).join()).not.toMatch(/apiKey/);
  });

  it.each([
    ['small', { toolSet: 'small' }],
    ['full', { toolSet: 'full' }],
    ['anything else is dropped', {}],
  ] as const)('keeps the tool set: %s', (value, expected) => {
    const store = memory({
      'slmcode:start-fields': JSON.stringify({ toolSet: value === 'anything else is dropped' ? 'tiny' : value }),
    });
    expect(loadRemembered(store)).toEqual(expected);
  });

  it.each([
    ['no storage', null],
    ['nothing stored', memory()],
    ['not JSON', memory({ 'slmcode:start-fields': '{oops' })],
    ['wrong shapes', memory({ 'slmcode:start-fields': '{"endpoint":{"baseUrl":1},"ggufUrl":2}' })],
  ])('%s gives empty fields', (_, store) => expect(loadRemembered(store)).toEqual({}));

  it('ignores a storage that refuses to write', () => {
    const store: KeyValueStore = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => saveRemembered(store, { ggufUrl: 'x' })).not.toThrow();
  });
});
