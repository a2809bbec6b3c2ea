/**
 * Typed requests over a worker boundary, carried by birpc. One interface of methods is the
 * contract (`EngineApi`, `ModelApi`): the calling side holds a `Remote` of it, the serving
 * side implements its `Handlers`, and nothing in between names a request. What this module
 * adds to birpc: no timeout (a model load takes minutes; a dead worker is noticed by its
 * owner instead), errors crossing as data through a codec of the protocol's choosing,
 * MessagePorts among the arguments moved in the transfer list, and a malformed message
 * ignored rather than thrown.
 */
import { createBirpc, type BirpcResolver, type BirpcReturn } from 'birpc';

/** `T`'s methods as the calling side sees them: each returns a Promise of its value. */
export type Remote<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;
};

/** `T`'s methods as the serving side implements them: each may answer at once or with a Promise. */
export type Handlers<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => R | Promise<R> : never;
};

/** One end of the boundary: a Worker, a worker's own scope, or a MessagePort. */
export interface Wire {
  post(message: unknown, transfer: Transferable[]): void;
  /** Calls `receive` with every message that arrives. */
  listen(receive: (message: unknown) => void): void;
}

/** The part of a Worker, a worker's own scope or a MessagePort that carries messages. */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** An endpoint as a wire. */
export function endpointWire(endpoint: Endpoint): Wire {
  return {
    post: (message, transfer) => endpoint.postMessage(message, transfer),
    listen: (receive) => endpoint.addEventListener('message', (event) => receive(event.data)),
  };
}

/** How a protocol sends a thrown error as data and rethrows it on the other side. */
export interface ErrorCodec {
  encode(error: unknown): unknown;
  decode(data: unknown): Error;
}

/** A birpc message as it is posted: a request (`t: 'q'`, method `m`, arguments `a`) or a reply (`t: 's'`, error `e`). */
interface Message {
  readonly t?: unknown;
  readonly a?: unknown;
  readonly e?: unknown;
}

export interface ConnectOptions<RemoteT, Local extends object> {
  /** Remote methods sent as events: no id, no reply. */
  readonly eventNames?: (keyof RemoteT)[];
  /** Finds the handler of a request by its method name (a queue, a lazily loaded host). */
  readonly resolver?: (name: string) => ((...args: any[]) => unknown) | undefined;
  /** The local methods the other side may call (when no resolver is given). */
  readonly local?: Handlers<Local>;
}

/** The RPC object over `wire`: call `RemoteT`'s methods on it; `Local`'s are answered from `options`. */
export function connect<RemoteT extends object, Local extends object = Record<string, never>>(
  wire: Wire,
  errors: ErrorCodec,
  options: ConnectOptions<RemoteT, Local> = {},
): BirpcReturn<RemoteT, Local> {
  const local = (options.local ?? {}) as Local;
  const { resolver } = options;
  // Only the methods a side declares are callable: `toString` or `constructor` is an unknown request.
  const resolve: BirpcResolver<BirpcReturn<RemoteT, Local>> = resolver
    ? (name) => resolver(name)
    : (name) => (Object.hasOwn(local, name) ? (local as Record<string, (...a: any[]) => unknown>)[name] : undefined);
  return createBirpc<RemoteT, Local>(local, {
    post: (message: Message) => wire.post(message, portsIn(message)),
    on: (receive) => wire.listen(receive),
    serialize: (message: Message) =>
      message.t === 's' && message.e !== undefined ? { ...message, e: errors.encode(message.e) } : message,
    deserialize: (message: unknown) => {
      if (typeof message !== 'object' || message === null) return {};
      const m = message as Message;
      return m.t === 's' && m.e !== undefined ? { ...m, e: errors.decode(m.e) } : m;
    },
    resolver: resolve,
    eventNames: options.eventNames ?? [],
    timeout: -1,
    // A reply that cannot be posted (a value that does not clone) is answered with its error
    // instead; any other failure reaches the caller.
    onGeneralError: (_error, functionName) => functionName !== undefined,
  });
}

/** The ports a request's arguments hand over: they must move, not be copied. */
function portsIn(message: Message): Transferable[] {
  if (message.t !== 'q' || !Array.isArray(message.a) || typeof MessagePort === 'undefined') return [];
  return message.a.filter((arg): arg is MessagePort => arg instanceof MessagePort);
}
