/**
 * A WebLLM model served from its own URL (self-hosted weights), as the start screen edits it:
 * the URL must be absolute and reachable from this page, and a base catalog model lends its
 * compiled model library (same architecture and quantisation). From the fields, the
 * `custom` part of a WebLLM run choice, or the reason there is none yet.
 */
import type { CustomModel } from '../../agent/models/worker-protocol.ts';

/** The form's fields; while `enabled`, runs use the custom model instead of a catalog one. */
export interface CustomModelFields {
  enabled: boolean;
  url: string;
  baseModelId: string;
}

/** What the URL must serve, said once for the form and the messages. */
export const CUSTOM_MODEL_FILES =
  'mlc-chat-config.json, the tokenizer files, tensor-cache.json and the weight shards it lists, under resolve/main/';

/** Hosts a page may fetch over plain http: the loopback ones are trusted by browsers. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Why the URL cannot be used, or null when it can. */
export function customUrlProblem(raw: string): string | null {
  const url = raw.trim();
  if (!url) return `Give the custom model's URL: https://…, or http://localhost:… for weights served on this machine.`;
  const parsed = URL.canParse(url) ? new URL(url) : null;
  // Plain http elsewhere is blocked as mixed content on an https page, and fetches from
  // another origin need CORS anyway: https (or loopback) is the only form that can load.
  const ok =
    parsed !== null && (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && LOOPBACK.has(parsed.hostname)));
  if (!ok)
    return `The custom model URL must be absolute and start with https:// (or http://localhost), serving ${CUSTOM_MODEL_FILES}; got ${JSON.stringify(url)}.`;
  return null;
}

/** The custom model to load, or why the fields do not name one; `catalogIds` are the models whose library may be reused. */
export function customModel(
  fields: CustomModelFields,
  catalogIds: readonly string[],
): CustomModel | { reason: string } {
  const problem = customUrlProblem(fields.url);
  if (problem) return { reason: problem };
  if (!catalogIds.includes(fields.baseModelId))
    return {
      reason: 'Pick the base model whose compiled library the custom model uses (same architecture and quantisation).',
    };
  const url = fields.url.trim();
  // The id names the record WebLLM looks up; prefixed so it can never shadow a prebuilt id.
  return { id: `custom:${url}`, url, baseModelId: fields.baseModelId };
}
