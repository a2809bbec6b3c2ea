/**
 * The share-link codec, pure and versioned: `{v: 1, …}` → JSON → deflate-raw → base64url
 * without padding, carried in the URL hash as `#s=…` (the hash never reaches a server).
 *
 * Decoding takes untrusted input and never throws for it: the input length is capped before
 * anything is decoded, inflating stops past `MAX_SESSION_BYTES`, and the result goes through
 * the record gate (`checkSession`: version, schema, jailed paths, no approval settings). Every
 * bad link becomes a message that names the cause and offers the session file instead.
 */
import { decodeText, encodeText } from '../engine/text.ts';
import { deflateRaw, inflateRawCapped } from './compress.ts';
import { sharedForm, type Session } from './record.ts';
import { checkSession, refuseRecord, type RefusalKind, type SessionCheck } from './validate.ts';

/** The hash parameter that carries a session. */
export const SHARE_PARAM = 's';
/** Links longer than this are refused before decoding (far above any real session, below Chromium's 2 MB URL limit). */
export const MAX_LINK_CHARS = 1_000_000;
/** A link's session JSON may not inflate past this (a shared record carries no result texts, so real ones stay far below). */
export const MAX_SESSION_BYTES = 2 * 1024 * 1024;
/** A session file may not exceed this: the file form keeps every result text, up to 1,000 steps of them. */
export const MAX_SESSION_FILE_BYTES = 32 * 1024 * 1024;
/** Chat apps and mail clients cut links well before browsers do; past this, offer the file. */
export const COMFORTABLE_LINK_CHARS = 2000;

const LINK_NEXT = 'Ask for the session file (.session.json) and open that instead.';
const NOT_BASE64URL = /[^A-Za-z0-9_-]/u;

/** The encoded session: base64url of deflate-raw of the shared form's JSON, no padding. */
export async function encodeSession(session: Session): Promise<string> {
  return toBase64Url(await deflateRaw(encodeText(JSON.stringify(sharedForm(session)))));
}

/** A link to `session` on the page at `base` (any hash `base` had is replaced). */
export async function shareUrl(session: Session, base: string): Promise<string> {
  const hash = base.indexOf('#');
  return `${hash < 0 ? base : base.slice(0, hash)}#${SHARE_PARAM}=${await encodeSession(session)}`;
}

export interface LinkReport {
  readonly chars: number;
  /** False past `COMFORTABLE_LINK_CHARS`: the person should share the file instead. */
  readonly fits: boolean;
  readonly text: string;
}

/** How long a link is, and whether it will survive being pasted into a chat. */
export function linkReport(link: string): LinkReport {
  const chars = link.length;
  const n = chars.toLocaleString('en-US');
  if (chars <= COMFORTABLE_LINK_CHARS) return { chars, fits: true, text: `The link is ${n} characters.` };
  return {
    chars,
    fits: false,
    text: `The link is ${n} characters, more than the ${COMFORTABLE_LINK_CHARS.toLocaleString('en-US')} many chat apps and mail clients keep: they may cut it, and a cut link does not open. Share the session file (.session.json) instead.`,
  };
}

function refuseLink(kind: RefusalKind, text: string): SessionCheck {
  return refuseRecord(kind, `${text} ${LINK_NEXT}`);
}

/**
 * Decodes a session from a full link (`https://…#s=…`), a bare hash (`#s=…`, `s=…`) or the
 * encoded string alone. Every failure is an outcome with a message, never an exception.
 */
export async function decodeShare(input: string): Promise<SessionCheck> {
  if (input.length > MAX_LINK_CHARS) {
    return refuseLink('too-large', `The session link is ${input.length.toLocaleString('en-US')} characters, more than the ${MAX_LINK_CHARS.toLocaleString('en-US')} a session link may have, so it was not decoded.`);
  }
  const payload = extractPayload(input.trim());
  if (typeof payload !== 'string') return payload;
  const bad = NOT_BASE64URL.exec(payload);
  if (bad) {
    const ch = bad[0].codePointAt(0)!;
    return refuseLink(
      'bad-characters',
      `The session link contains ${JSON.stringify(bad[0])} (U+${ch.toString(16).toUpperCase().padStart(4, '0')}) at position ${bad.index + 1} of its data, a character a session link never has: it was changed, or copied together with other text.`,
    );
  }
  // A base64 string one past a multiple of 4 cannot come from any bytes: the link lost its end.
  if (payload.length % 4 === 1) return refuseLink('truncated', 'The session link is cut short: its data stops in the middle of a character group. Chat apps often cut long links.');
  const inflated = await inflateRawCapped(fromBase64Url(payload), MAX_SESSION_BYTES);
  if (!inflated.ok) {
    switch (inflated.reason) {
      case 'truncated':
        return refuseLink('truncated', 'The session link is cut short: its data ends before the session does. Chat apps often cut long links.');
      case 'corrupt':
        return refuseLink('corrupt', `The session link's data is damaged and does not decompress (${inflated.detail}): it was changed or copied incompletely.`);
      case 'bomb':
        return refuseLink('bomb', `The session link expands to more than ${MAX_SESSION_BYTES / 1024 / 1024} MB when decompressed, far more than any session needs, so decompressing was stopped and it was not opened.`);
      default: {
        const never: never = inflated.reason;
        throw new Error(`unknown inflate failure ${JSON.stringify(never)}`);
      }
    }
  }
  return parseJson(inflated.bytes, 'link');
}

/** Checks the text of a session file (JSON, the file form) as untrusted input. */
export async function parseSessionFile(text: string): Promise<SessionCheck> {
  const bytes = encodeText(text);
  if (bytes.length > MAX_SESSION_FILE_BYTES) {
    return refuseRecord('too-large', `The session file is ${bytes.length.toLocaleString('en-US')} bytes, more than the ${MAX_SESSION_FILE_BYTES.toLocaleString('en-US')} a session file may have, so it was not read.`);
  }
  return parseJson(bytes, 'file');
}

async function parseJson(bytes: Uint8Array, from: 'link' | 'file'): Promise<SessionCheck> {
  let value: unknown;
  try {
    value = JSON.parse(decodeText(bytes));
  } catch (e) {
    const detail = (e as Error).message;
    return from === 'link'
      ? refuseLink('not-json', `The session link decompressed, but not to a session (${detail}): it was changed after it was made.`)
      : refuseRecord('not-json', `The session file is not JSON (${detail}). A session file is the .session.json a recorded run writes.`);
  }
  return checkSession(value);
}

/** The encoded part of the input, or the refusal when the input carries none. */
function extractPayload(input: string): string | SessionCheck {
  const hash = input.indexOf('#');
  if (hash >= 0) {
    const param = input
      .slice(hash + 1)
      .split('&')
      .find((p) => p.startsWith(`${SHARE_PARAM}=`));
    if (param === undefined) return refuseLink('not-a-link', `This is not a session link: its "#" part has no ${SHARE_PARAM}=… (a session link ends in #${SHARE_PARAM}= and the encoded session).`);
    return stripPadding(param.slice(SHARE_PARAM.length + 1));
  }
  if (input.startsWith(`${SHARE_PARAM}=`)) return stripPadding(input.slice(SHARE_PARAM.length + 1));
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) || input.includes('/')) {
    return refuseLink('not-a-link', `This is not a session link: it has no #${SHARE_PARAM}=… part (a session link ends in #${SHARE_PARAM}= and the encoded session).`);
  }
  if (input === '') return refuseLink('not-a-link', 'This is not a session link: it is empty.');
  return stripPadding(input);
}

function stripPadding(s: string): string {
  return s.replace(/={1,2}$/, '');
}

/** base64url without padding (RFC 4648 §5), through btoa, which browsers and Node 20 share. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // Chunked: String.fromCharCode with a huge argument list overflows the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The inverse of `toBase64Url`; the caller has checked the alphabet and the length. */
export function fromBase64Url(text: string): Uint8Array {
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
