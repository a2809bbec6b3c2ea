/**
 * The web companion's wire format, shared by its server (`slm serve-web`, src/cli/serve-web.ts)
 * and the tab's transport (companion-web.ts): one POST to `COMPANION_PATH` per HTTP GET the web
 * tools make, `{url, accept, allowPrivate}` in, an `HttpOutcome` out with the body in base64.
 * The token rides in `Authorization: Bearer`; the page's origin in `Origin`. Both sides check
 * what they receive against these schemas, so a malformed message is a failure with a reason.
 */
import { z } from 'zod';
import type { HttpOutcome } from '../engine/web/transport.ts';
import { fromBase64, toBase64 } from '../engine/web/web-log.ts';
import { WEB_COMPANION_COMMAND } from '../engine/web/banner.ts';

/** The one path the companion answers. */
export const COMPANION_PATH = '/v1/get';

/** The port `slm serve-web` listens on unless told otherwise (the one `WEB_COMPANION_COMMAND` names). */
export const COMPANION_DEFAULT_PORT = 8787;

/** What the tab's messages tell a person to run. */
export const COMPANION_COMMAND = WEB_COMPANION_COMMAND;

/** One GET the tab asks the companion to make. */
export const companionRequestSchema = z.strictObject({
  url: z.string().min(1).max(4096),
  accept: z.string().max(200),
  allowPrivate: z.boolean(),
});

const replySchema = z.union([
  z.strictObject({
    ok: z.literal(true),
    status: z.number().int().min(100).max(599),
    headers: z.record(z.string(), z.string()),
    body: z.string(),
  }),
  z.strictObject({
    ok: z.literal(false),
    code: z.enum(['private-address', 'too-large', 'timeout', 'unreachable']),
    text: z.string().max(2000),
  }),
]);

/** A refusal of the companion itself (origin, token, method, bad request), with what to do. */
export const companionRefusalSchema = z.strictObject({ refused: z.string().max(2000) });

/** The JSON the companion sends for `outcome`. */
export function encodeOutcome(outcome: HttpOutcome): string {
  return JSON.stringify(
    outcome.ok
      ? { ok: true, status: outcome.status, headers: outcome.headers, body: toBase64(outcome.body) }
      : { ok: false, code: outcome.code, text: outcome.text },
  );
}

/** The outcome carried by the companion's JSON `value`, or null when it is not one. */
export function decodeOutcome(value: unknown): HttpOutcome | null {
  const parsed = replySchema.safeParse(value);
  if (!parsed.success) return null;
  const r = parsed.data;
  return r.ok ? { ok: true, status: r.status, headers: r.headers, body: fromBase64(r.body) } : r;
}
