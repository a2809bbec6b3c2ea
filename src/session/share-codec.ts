/**
 * The share-link codec, pure and versioned, carried in the URL hash as `#s=…` (the hash never
 * reaches a server). Version 2, which this build writes: `2.` and then base64url (no padding)
 * of a frame — the deflated length (3 bytes), a check byte over that length, the first 4 bytes
 * of the SHA-256 of the deflated data, and deflate-raw of the compact JSON form
 * (link-form.ts). The frame tells a link that was cut (shorter than its length says) from one
 * that was damaged (a character changed: the check fails) and from one that was altered (intact,
 * but not a valid session). A link never ends in `-` or `_`, which chat apps take for
 * punctuation and drop: a zero byte is added after the data when it would. Version 1 (no
 * prefix: base64url of deflate-raw of the shared form's JSON) is still read.
 *
 * Decoding takes untrusted input and never throws for it: the input length is capped before
 * anything is decoded, inflating stops past `MAX_SESSION_BYTES`, and the result goes through
 * the record gate (`checkSession`: version, schema, jailed paths, no approval settings). Every
 * bad link becomes a message that says plainly what is wrong with it and offers the session
 * file instead.
 */
import { decodeText, encodeText } from '../engine/text.ts';
import { deflateRaw, inflateRawCapped } from './compress.ts';
import { shortHash } from './hash.ts';
import { fromBase64Url, toBase64Url } from './base64url.ts';
import { fromLinkForm, toLinkForm } from './link-form.ts';
import { outsideAnswers, withoutOutside } from './link-outside.ts';
import { sharedForm, type Session } from './record.ts';
import { checkSession, refuseRecord, type LinkFault, type RefusalKind, type SessionCheck } from './validate.ts';

export { fromBase64Url, toBase64Url };

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

/** The prefix of a version 2 link's data; version 1 data has none (and never a "."). */
export const LINK_V2 = '2.';
/** Bytes of a v2 frame before the deflated data: its length (3), a check of the length (1), a check of the data (4). */
const FRAME_HEAD = 8;
/** Fewer characters than any session's link has: such data is not a session link at all. */
const MIN_PAYLOAD_CHARS = 32;

/** The record as a link carries it: its shared form, each shell step with the short hash of its output. */
export async function linkSession(session: Session): Promise<Session> {
  const steps = await Promise.all(
    session.steps.map(async (s) =>
      s.shellOutput !== undefined && s.shellHash === undefined
        ? { ...s, shellHash: await shortHash(s.shellOutput) }
        : s,
    ),
  );
  return sharedForm({ ...session, steps });
}

/** The encoded session (version 2): `2.` + base64url of the frame around deflate-raw of the compact form. */
export async function encodeSession(session: Session): Promise<string> {
  return encodeLinkText(JSON.stringify(toLinkForm(await linkSession(session))));
}

/** Any text framed as a version 2 link's data (encodeSession's last step; tests craft links with it). */
export async function encodeLinkText(text: string): Promise<string> {
  const data = await deflateRaw(encodeText(text));
  const frame = new Uint8Array(FRAME_HEAD + data.length + 1);
  frame.set([data.length >> 16, (data.length >> 8) & 0xff, data.length & 0xff, lengthCheck(data.length)]);
  frame.set(await dataCheck(data), 4);
  frame.set(data, FRAME_HEAD);
  const whole = toBase64Url(frame.subarray(0, frame.length - 1));
  // A last character chat apps would drop: one zero byte more makes the last one a letter or digit.
  return LINK_V2 + (/[-_]$/.test(whole) ? toBase64Url(frame) : whole);
}

/**
 * One byte over the length. Its odd weights are chosen so that changing any one of the first
 * four characters of the data (which hold the length) always changes it: a damaged length is
 * told from a cut link, never mistaken for one.
 */
function lengthCheck(n: number): number {
  return ((n >> 16) * 151 + ((n >> 8) & 0xff) * 73 + (n & 0xff) * 29 + 0x5a) & 0xff;
}

/** The first 4 bytes of SHA-256 over `data`. */
async function dataCheck(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)).subarray(0, 4);
}

/**
 * A link to `session` on the page at `base` (any hash `base` had is replaced). Its title rides
 * along, cut short, only while the link stays within what chat apps keep
 * (`COMFORTABLE_LINK_CHARS`): the title is never what makes a link too long to share.
 */
export async function shareUrl(session: Session, base: string): Promise<string> {
  const hash = base.indexOf('#');
  const url = async (s: Session) => `${hash < 0 ? base : base.slice(0, hash)}#${SHARE_PARAM}=${await encodeSession(s)}`;
  const titled = await url(session);
  if (session.title === undefined || titled.length <= COMFORTABLE_LINK_CHARS) return titled;
  const { title: _t, ...untitled } = session;
  return url(untitled);
}

export interface LinkReport {
  readonly chars: number;
  /** False past `COMFORTABLE_LINK_CHARS`: the person should share the file instead. */
  readonly fits: boolean;
  readonly text: string;
}

/** The recorded web and MCP answers a link carries, and the characters they add to it. */
export interface LinkOutside {
  readonly answers: number;
  readonly chars: number;
}

const SHARE_FILE = 'Share the session file (.session.json) instead.';

/**
 * How long a link is, and whether it will survive being pasted into a chat (and, past
 * `MAX_LINK_CHARS`, whether it opens at all); with `outside`, what its recorded web and MCP
 * answers add to it.
 */
export function linkReport(link: string, outside?: LinkOutside): LinkReport {
  const chars = link.length;
  const n = chars.toLocaleString('en-US');
  const answers =
    outside === undefined
      ? ''
      : ` It carries the ${outside.answers.toLocaleString('en-US')} web and MCP answer${outside.answers === 1 ? '' : 's'} the session recorded (${outside.chars.toLocaleString('en-US')} of its characters), so whoever opens it replays them offline.`;
  if (chars <= COMFORTABLE_LINK_CHARS) return { chars, fits: true, text: `The link is ${n} characters.${answers}` };
  if (chars > MAX_LINK_CHARS) {
    return {
      chars,
      fits: false,
      text: `The link is ${n} characters, more than the ${MAX_LINK_CHARS.toLocaleString('en-US')} a session link may have: it would not open anywhere.${answers} ${SHARE_FILE}`,
    };
  }
  return {
    chars,
    fits: false,
    text: `The link is ${n} characters, more than the ${COMFORTABLE_LINK_CHARS.toLocaleString('en-US')} many chat apps and mail clients keep: they may cut it, and a cut link does not open.${answers} ${SHARE_FILE}`,
  };
}

/**
 * The link to `session` on the page at `base` and its report. When the session recorded web
 * or MCP answers, the link carries them, and the report says how many and how many characters
 * they add (the link made without them, compared).
 */
export async function shareLink(session: Session, base: string): Promise<{ url: string; report: LinkReport }> {
  const url = await shareUrl(session, base);
  const answers = outsideAnswers(session.steps);
  if (answers === 0) return { url, report: linkReport(url) };
  const bare = await shareUrl({ ...session, steps: withoutOutside(session.steps) }, base);
  return { url, report: linkReport(url, { answers, chars: Math.max(0, url.length - bare.length) }) };
}

function refuseLink(kind: RefusalKind, fault: LinkFault | null, text: string): SessionCheck {
  return refuseRecord(kind, `${text} ${LINK_NEXT}`, fault);
}

const CHAT_CUTS = 'Chat apps and mail clients often cut long links.';

/**
 * Decodes a session from a full link (`https://…#s=…`), a bare hash (`#s=…`, `s=…`) or the
 * encoded string alone, in either version. Every failure is an outcome with a message, never an
 * exception; one that is the link's own fault says which: damaged, cut, or altered.
 */
export async function decodeShare(input: string): Promise<SessionCheck> {
  if (input.length > MAX_LINK_CHARS) {
    return refuseLink(
      'too-large',
      null,
      `The session link is ${input.length.toLocaleString('en-US')} characters, more than the ${MAX_LINK_CHARS.toLocaleString('en-US')} a session link may have, so it was not decoded.`,
    );
  }
  // A link pasted out of a sentence keeps the `)`, `.` or `,` after it; none of them is in base64url.
  const payload = extractPayload(input.trim().replace(/[).,]+$/, ''));
  if (typeof payload !== 'string') return payload;
  const v2 = payload.startsWith(LINK_V2);
  const data = v2 ? payload.slice(LINK_V2.length) : payload;
  const bad = NOT_BASE64URL.exec(data);
  if (bad) {
    const ch = bad[0].codePointAt(0)!;
    return refuseLink(
      'bad-characters',
      'damaged',
      `The session link is damaged: it contains ${JSON.stringify(bad[0])} (U+${ch.toString(16).toUpperCase().padStart(4, '0')}) at position ${bad.index + 1} of its data, a character a session link never has. It was changed, or copied together with other text.`,
    );
  }
  if (data === '')
    return refuseLink(
      'truncated',
      'cut',
      `The session link is cut short: nothing follows "#${SHARE_PARAM}=". ${CHAT_CUTS}`,
    );
  if (data.length < MIN_PAYLOAD_CHARS) {
    return refuseLink(
      'not-a-link',
      null,
      `This is not a session link: its data, ${JSON.stringify(data)}, is ${data.length} character${data.length === 1 ? '' : 's'}, far fewer than any session needs.`,
    );
  }
  return v2 ? decodeV2(data) : decodeV1(data);
}

/** Version 2: the frame says whether the data is all there and unchanged before anything is inflated. */
async function decodeV2(data: string): Promise<SessionCheck> {
  if (data.length % 4 === 1)
    return refuseLink(
      'truncated',
      'cut',
      `The session link is cut short: its data stops in the middle of a character group. ${CHAT_CUTS}`,
    );
  const frame = fromBase64Url(data);
  const declared = (frame[0]! << 16) | (frame[1]! << 8) | frame[2]!;
  if (frame[3] !== lengthCheck(declared))
    return refuseLink(
      'corrupt',
      'damaged',
      'The session link is damaged: a character near its start was changed (its length field does not check out).',
    );
  const have = frame.length - FRAME_HEAD;
  if (have < declared) {
    return refuseLink(
      'truncated',
      'cut',
      `The session link is cut short: it holds ${Math.max(0, have).toLocaleString('en-US')} of its ${declared.toLocaleString('en-US')} bytes of data. ${CHAT_CUTS}`,
    );
  }
  if (have > declared + 1 || (have === declared + 1 && frame.at(-1) !== 0)) {
    return refuseLink(
      'corrupt',
      'damaged',
      'The session link is damaged: it has more characters than it was made with. It was copied together with other text.',
    );
  }
  const deflated = frame.subarray(FRAME_HEAD, FRAME_HEAD + declared);
  const check = await dataCheck(deflated);
  if (check.some((b, i) => b !== frame[4 + i])) {
    return refuseLink(
      'corrupt',
      'damaged',
      'The session link is damaged: one or more of its characters were changed (its check value does not match its data).',
    );
  }
  // The data is exactly as it was made: whatever is wrong with it now was made that way.
  const inflated = await inflateRawCapped(deflated, MAX_SESSION_BYTES);
  if (!inflated.ok) {
    if (inflated.reason === 'bomb') return refuseBomb();
    return refuseLink(
      'corrupt',
      'altered',
      'The session link was altered: it arrived intact, but its data is not compressed as this format writes it, so it was made by another program.',
    );
  }
  const value = parseLinkJson(inflated.bytes);
  if (value === undefined)
    return refuseLink(
      'not-json',
      'altered',
      'The session link was altered: it arrived intact, but its data is not a session record, so it was made by another program.',
    );
  const read = fromLinkForm(value);
  if (!read.ok)
    return refuseLink(
      'schema',
      'altered',
      `The session link was altered: it arrived intact, but it is not a session record (${read.problem}), so it was made by another program.`,
    );
  return alteredIfInvalid(await checkSession(read.record), 'it arrived intact, but');
}

/** Version 1: base64url of deflate-raw of the shared form's JSON, with no check value of its own. */
async function decodeV1(data: string): Promise<SessionCheck> {
  // A base64 string one past a multiple of 4 cannot come from any bytes: the link lost characters.
  if (data.length % 4 === 1)
    return refuseLink(
      'truncated',
      'cut',
      `The session link is cut short (or lost a character): its data stops in the middle of a character group. ${CHAT_CUTS}`,
    );
  const inflated = await inflateRawCapped(fromBase64Url(data), MAX_SESSION_BYTES);
  if (!inflated.ok) {
    switch (inflated.reason) {
      case 'truncated':
        return refuseLink(
          'truncated',
          'cut',
          `The session link is cut short: its data ends before the session does. ${CHAT_CUTS}`,
        );
      case 'corrupt':
        return refuseLink(
          'corrupt',
          'damaged',
          'The session link is damaged: its data does not decompress, so characters in it were changed or lost in copying.',
        );
      case 'bomb':
        return refuseBomb();
      default: {
        const never: never = inflated.reason;
        throw new Error(`unknown inflate failure ${JSON.stringify(never)}`);
      }
    }
  }
  const value = parseLinkJson(inflated.bytes);
  if (value === undefined)
    return refuseLink(
      'not-json',
      'damaged',
      'The session link is damaged: its data decompresses, but not to a session record, so a character in it was changed.',
    );
  return alteredIfInvalid(await checkSession(value), 'its data reads, but');
}

function refuseBomb(): SessionCheck {
  return refuseLink(
    'bomb',
    null,
    `The session link expands to more than ${MAX_SESSION_BYTES / 1024 / 1024} MB when decompressed, far more than any session needs, so decompressing was stopped and it was not opened.`,
  );
}

/** The JSON value of a link's data, or undefined when it is not JSON (the parser's own words help nobody here). */
function parseLinkJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decodeText(bytes));
  } catch {
    return undefined;
  }
}

/** A record refused for its content came in a link that decoded: the link was altered after it was made. */
function alteredIfInvalid(checked: SessionCheck, how: string): SessionCheck {
  if (checked.ok || (checked.kind !== 'schema' && checked.kind !== 'path')) return checked;
  return refuseRecord(
    checked.kind,
    `The session link was altered: ${how} ${checked.text.charAt(0).toLowerCase()}${checked.text.slice(1)}`,
    'altered',
  );
}

/** Checks the text of a session file (JSON, the file form) as untrusted input. */
export async function parseSessionFile(text: string): Promise<SessionCheck> {
  const bytes = encodeText(text);
  if (bytes.length > MAX_SESSION_FILE_BYTES) {
    return refuseRecord(
      'too-large',
      `The session file is ${bytes.length.toLocaleString('en-US')} bytes, more than the ${MAX_SESSION_FILE_BYTES.toLocaleString('en-US')} a session file may have, so it was not read.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(decodeText(bytes));
  } catch (e) {
    return refuseRecord(
      'not-json',
      `The session file is not JSON (${(e as Error).message}). A session file is the .session.json a recorded run writes.`,
    );
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
    if (param === undefined)
      return refuseLink(
        'not-a-link',
        null,
        `This is not a session link: its "#" part has no ${SHARE_PARAM}=… (a session link ends in #${SHARE_PARAM}= and the encoded session).`,
      );
    return stripPadding(param.slice(SHARE_PARAM.length + 1));
  }
  if (input.startsWith(`${SHARE_PARAM}=`)) return stripPadding(input.slice(SHARE_PARAM.length + 1));
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) || input.includes('/')) {
    return refuseLink(
      'not-a-link',
      null,
      `This is not a session link: it has no #${SHARE_PARAM}=… part (a session link ends in #${SHARE_PARAM}= and the encoded session).`,
    );
  }
  if (input === '') return refuseLink('not-a-link', null, 'This is not a session link: it is empty.');
  return stripPadding(input);
}

function stripPadding(s: string): string {
  return s.replace(/={1,2}$/, '');
}
