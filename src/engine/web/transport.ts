/**
 * The host's side of the web tools: one HTTP GET, no redirects followed, made by whoever can
 * reach the network (the CLI's Node transport, the tab's companion). The engine owns this
 * interface and the policy around it (schemes, the allowlist, redirects, the deadline, types);
 * the transport owns what only it can see: the addresses a name resolves to, each checked with
 * `isPrivateAddress` before it connects, and the body's bytes, counted while they stream.
 */

/** One request. The transport must not follow redirects: the engine re-checks every hop. */
export interface HttpRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Stop reading and answer `too-large` once the body passes this many bytes. */
  readonly maxBytes: number;
  /** Connect to loopback and private addresses too (`web_allow_private`). */
  readonly allowPrivate: boolean;
  /** Aborted at the call's deadline: stop at once and answer `timeout`. */
  readonly signal: AbortSignal;
}

export interface HttpReply {
  readonly ok: true;
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

/** Why a request got no reply, as the transport saw it. */
export type HttpFailureCode = 'private-address' | 'too-large' | 'timeout' | 'unreachable';

export interface HttpFailure {
  readonly ok: false;
  readonly code: HttpFailureCode;
  /** What happened, for the result (e.g. "example.test resolves to 10.0.0.5, a private address"). */
  readonly text: string;
}

export type HttpOutcome = HttpReply | HttpFailure;

/** What a host gives the web tools. */
export interface WebTransport {
  /** Never throws: every failure is an `HttpFailure`. */
  request(req: HttpRequest): Promise<HttpOutcome>;
}
