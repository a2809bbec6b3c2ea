/**
 * The engine worker's protocol — types only. Requests are a union tagged by `type` and carry
 * an `id`; every reply names the id it answers. Errors cross the boundary as data
 * (`WireError`) and are rethrown by the client. The worker handles one request at a time, in
 * the order they arrive, so a tool call never interleaves with a reset.
 */
import type { ToolResult } from '../engine/result.ts';
import type { EntryType } from '../engine/workspace.ts';

/** A JSON Schema document as `z.toJSONSchema` produces it: plain, cloneable data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as the console shows it: the card, and the schema the form is generated from. */
export interface ToolInfo {
  readonly name: string;
  /** The one-line contract. */
  readonly summary: string;
  /** True when the tool can change the workspace. */
  readonly writes: boolean;
  /** alias → canonical argument name the engine also accepts. */
  readonly aliases: Readonly<Record<string, string>>;
  /** The arguments' JSON schema (`io: 'input'`), or null when the zod schema has no JSON form. */
  readonly inputSchema: JsonSchema | null;
}

export interface TreeEntry {
  /** POSIX path relative to the workspace root. */
  readonly path: string;
  readonly type: EntryType;
  /** Bytes for files, link text length for symlinks, 0 for directories. */
  readonly size: number;
  /** The link text as stored, for symlinks. */
  readonly target?: string;
}

/** Every entry of the workspace, sorted by path, depth-first. */
export interface WorkspaceSnapshot {
  readonly entries: readonly TreeEntry[];
  /** True when the walk stopped at the entry cap; the list then shows only the first entries. */
  readonly truncated: boolean;
}

/** A file as the read-only viewer shows it (not what a tool would show the model). */
export interface FileView {
  readonly path: string;
  readonly size: number;
  /** null for a binary file. */
  readonly text: string | null;
  /** True when only the first part of a large file was sent. */
  readonly truncated: boolean;
}

/** What the worker says once it is set up. */
export interface EngineInfo {
  /** The workspace backend ('memory'). */
  readonly workspaceKind: string;
  readonly template: { readonly id: string; readonly title: string; readonly hash: string; readonly task: string };
}

/** Each request's parameters and the value its reply carries, by request type. */
export interface EngineCalls {
  'list-tools': { params: {}; result: readonly ToolInfo[] };
  'call-tool': { params: { readonly name: string; readonly args: unknown }; result: ToolResult };
  'file-tree': { params: {}; result: WorkspaceSnapshot };
  'read-file': { params: { readonly path: string }; result: FileView };
  /** A fresh workspace seeded from the template, and a fresh engine session (seen files, loop guard). */
  reset: { params: {}; result: WorkspaceSnapshot };
}

export type EngineRequestType = keyof EngineCalls;

export type EngineRequestOf<K extends EngineRequestType> = { readonly type: K; readonly id: number } & EngineCalls[K]['params'];

export type EngineRequest = { [K in EngineRequestType]: EngineRequestOf<K> }[EngineRequestType];

/** An error as data: enough to rethrow it with its name and message on the other side. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export type EngineResponse =
  /** Sent once, after the first session is created. */
  | { readonly type: 'ready'; readonly info: EngineInfo }
  /** The worker could not set itself up; it answers nothing after this. */
  | { readonly type: 'fatal'; readonly error: WireError }
  | { readonly type: 'result'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: WireError };
