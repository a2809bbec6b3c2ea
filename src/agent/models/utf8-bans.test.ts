import { describe, expect, it } from 'vitest';
import type { GgufHeader, GgufValue } from './gguf-header.ts';
import { bannedTokenIds, gpt2Bytes } from './utf8-bans.ts';

function header(model: string, tokens: string[], types?: number[]): GgufHeader {
  const meta = new Map<string, GgufValue>([
    ['tokenizer.ggml.model', model],
    ['tokenizer.ggml.tokens', tokens],
  ]);
  if (types) meta.set('tokenizer.ggml.token_type', types);
  return { version: 3, tensorCount: 0n, meta };
}

describe('bannedTokenIds', () => {
  it('SentencePiece: bans the byte tokens from <0x80> up, keeps ASCII bytes and normal pieces', () => {
    const tokens = ['<unk>', '<0x0A>', '<0x7F>', '<0x80>', '<0xBF>', '<0xC0>', '<0xFF>', '▁the', 'é', '<|im_end|>'];
    const types = [2, 6, 6, 6, 6, 6, 6, 1, 1, 3];
    expect(bannedTokenIds(header('llama', tokens, types))).toEqual([3, 4, 5, 6]);
  });

  it('byte-level BPE: bans tokens whose bytes are not whole UTF-8, keeps whole characters', () => {
    // GPT-2's byte map: 'Ã' is byte 0xC3, '©' is 0xA9 — together "é"; 'Ġ' is the space byte.
    const tokens = ['Ġthe', 'Ã©', 'Ã', '©', 'ä½ł', 'ä½', '<|im_start|>'];
    const types = [1, 1, 1, 1, 1, 1, 3];
    expect(bannedTokenIds(header('gpt2', tokens, types))).toEqual([2, 3, 5]);
  });

  it('a vocabulary without tokens bans nothing', () => {
    expect(bannedTokenIds({ version: 3, tensorCount: 0n, meta: new Map() })).toEqual([]);
  });
});

describe('gpt2Bytes', () => {
  it.each([
    ['Ġ', [0x20]],
    ['Ċ', [0x0a]],
    ['a', [0x61]],
    ['Ã©', [0xc3, 0xa9]],
  ])('%s', (token, bytes) => expect([...gpt2Bytes(token)!]).toEqual(bytes));

  it('a character outside the byte map is not a byte spelling', () => expect(gpt2Bytes('你')).toBeNull());
});
