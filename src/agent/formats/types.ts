/**
 * What a native tool-call format reader reports: each call it found, or each call it saw begin
 * but could not read, with where it sits in the text. parse.ts merges these with the JSON
 * envelopes it finds itself and keeps the first complete call.
 */

export interface NativeCall {
  readonly tool: string;
  readonly args: unknown;
}

/** One block of calls: a single call, or a list the format writes in one piece (pythonic, Apertus). */
export interface FoundCall {
  /** The format's name, as `slm parse` prints it (e.g. "qwen3-xml", "pythonic"). */
  readonly format: string;
  readonly start: number;
  /** Exclusive end of the block's text, closing markers included. */
  readonly end: number;
  /** In order; never empty. */
  readonly calls: readonly NativeCall[];
  /** Every value arrived as text, to be read by the tool's schema (the XML-style formats). */
  readonly textValues?: boolean;
}

export interface BrokenCall {
  readonly format: string;
  readonly start: number;
  readonly end: number;
  /** What is wrong, for the retry message: "its <parameter=path> never closes". */
  readonly problem: string;
}

export type Found = FoundCall | BrokenCall;

/** One family of formats: finds every call (or broken call) in `text`. */
export interface NativeFormat {
  /** The shape the family expects, quoted when one of its calls is broken. */
  readonly label: string;
  scan(text: string): Found[];
}

export function isCall(f: Found): f is FoundCall {
  return 'calls' in f;
}

/** Arguments sent as a JSON string holding an object are decoded; anything else is kept. */
export function decodeArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    const inner: unknown = JSON.parse(args);
    return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? inner : args;
  } catch {
    return args;
  }
}
