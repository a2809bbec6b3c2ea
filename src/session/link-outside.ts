/**
 * The outside answers a share link carries: each step's recorded web requests and MCP listings
 * and calls (record.ts's `web` and `mcp`), so a link's replay answers them from the link as a
 * session file's does, offline. A web body travels as its text when it is UTF-8 that turns back
 * into the very same bytes (deflate packs text far tighter than base64), and as the recorded
 * base64 otherwise; MCP answers are text already and travel as recorded. Reading a link rebuilds
 * the record's fields unchecked: the record gate (`checkSession`) checks them like any record
 * from outside, and a tampered answer gives another result than the recorded hash, which the
 * replay reports as a divergence.
 */
import { z } from 'zod';
import { decodeText, encodeText } from '../engine/text.ts';
import { fromBase64, toBase64 } from '../engine/web/web-log.ts';
import type { RecordedStep } from './record.ts';

type WebRecord = NonNullable<RecordedStep['web']>[number];

/** A web exchange in a link: the record's fields, with the body as text (`t`) when it is UTF-8. */
export const linkWebSchema = z.array(
  z.object({ body: z.string().optional(), t: z.string().optional() }).catchall(z.unknown()),
);

/** The web exchanges as a link writes them. */
export function toLinkWeb(web: readonly WebRecord[]): z.infer<typeof linkWebSchema> {
  return web.map(({ body, ...rest }) => {
    if (body === undefined) return rest;
    const text = decodeText(fromBase64(body));
    return toBase64(encodeText(text)) === body ? { ...rest, t: text } : { ...rest, body };
  });
}

/** The record's web exchanges a link's `W` field stands for, or what is wrong with it. */
export function fromLinkWeb(
  web: z.infer<typeof linkWebSchema>,
): { readonly ok: true; readonly web: unknown[] } | { readonly ok: false; readonly problem: string } {
  const out: unknown[] = [];
  for (const [i, { t, ...rest }] of web.entries()) {
    if (t !== undefined && rest.body !== undefined)
      return { ok: false, problem: `exchange ${i + 1} carries its body twice (as text and as base64)` };
    out.push(t === undefined ? rest : { ...rest, body: toBase64(encodeText(t)) });
  }
  return { ok: true, web: out };
}

/** How many recorded outside answers (web requests, MCP listings and calls) `steps` hold. */
export function outsideAnswers(steps: readonly RecordedStep[]): number {
  return steps.reduce((n, s) => n + (s.web?.length ?? 0) + (s.mcp?.length ?? 0), 0);
}

/** `steps` without their recorded outside answers: what a link would be without them. */
export function withoutOutside(steps: readonly RecordedStep[]): RecordedStep[] {
  return steps.map(({ web: _w, mcp: _m, ...kept }) => kept);
}
