/**
 * The stdio transport for an MCP server the CLI starts: the process is spawned exactly as the
 * command sandbox wraps it (bubblewrap, its seccomp descriptor handed over, a process group of
 * its own) and its output is counted while it streams. Past the byte cap the process is killed
 * and the connection closed, so a 50 MB answer ends at the cap instead of filling memory; a
 * line that is not a JSON-RPC message ends the connection too, named as malformed. The SDK's
 * own stdio transport buffers up to 10 MB per message and passes no extra descriptors, which
 * bubblewrap's `--seccomp 3` needs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpTooLarge } from '../platform/mcp-client.ts';
import { closeSandboxFds, sandboxStdio, type SandboxedSpawn } from '../workspace/node/host-sandbox.ts';

/** The server sent a line that is not a JSON-RPC message. */
export class McpMalformed extends Error {}

/** A connection to one stdio server; `maxBytes` bounds everything it may send. */
export class CappedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  #child: ChildProcess | undefined;
  #received = 0;
  #closed = false;
  readonly #buffer: ReadBuffer;

  constructor(
    private readonly process: SandboxedSpawn,
    private readonly maxBytes: number,
  ) {
    this.#buffer = new ReadBuffer({ maxBufferSize: maxBytes + 1 });
  }

  /** Bytes the server has sent so far. */
  get received(): number {
    return this.#received;
  }

  start(): Promise<void> {
    const w = this.process;
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(w.file, w.args, {
          env: w.env,
          stdio: sandboxStdio('pipe', 'pipe', 'ignore', w),
          detached: true,
        });
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      } finally {
        closeSandboxFds(w);
      }
      this.#child = child;
      child.on('error', (e) => {
        reject(e);
        this.onerror?.(e);
        this.#end();
      });
      child.on('spawn', () => resolve());
      child.on('close', () => this.#end());
      child.stdin!.on('error', (e) => this.onerror?.(e));
      child.stdout!.on('data', (chunk: Buffer) => this.#take(chunk));
    });
  }

  #take(chunk: Buffer): void {
    if (this.#closed) return;
    this.#received += chunk.length;
    if (this.#received > this.maxBytes) {
      this.#fail(new McpTooLarge(`the server sent more than ${this.maxBytes} bytes`));
      return;
    }
    this.#buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (e) {
        this.#fail(new McpMalformed(`a line that is not a JSON-RPC message (${(e as Error).message.slice(0, 200)})`));
        return;
      }
      if (!message) return;
      this.onmessage?.(message);
    }
  }

  #fail(error: Error): void {
    this.onerror?.(error);
    void this.close();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.#child?.stdin;
      if (!stdin || this.#closed) throw new Error('the MCP server process is not running');
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Kills the server's whole process group (bubblewrap's namespace ends with it) and closes. */
  close(): Promise<void> {
    const child = this.#child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
    this.#end();
    return Promise.resolve();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer.clear();
    this.onclose?.();
  }
}
