/**
 * Per-session engine state: what was read (read-before-edit, content tags), the checkpoint
 * store, edit misses per file and the loop guard's tracker. One per engine session ("task"),
 * so one task's history cannot poison another's.
 */

import type { WebExchange } from './web/web-log.ts';
import type { McpExchange } from './mcp/mcp-log.ts';

export interface Checkpoint {
  readonly id: number;
  readonly tool: string;
  readonly path: string;
  /** The file's text before the call; null when it did not exist. */
  readonly before: string | null;
}

/** One line of the ws_todo checklist. */
export interface TodoItem {
  readonly text: string;
  readonly done: boolean;
}

export class SessionState {
  /** path → the file text as this session last read or wrote it. */
  readonly seen = new Map<string, string>();
  readonly checkpoints: Checkpoint[] = [];
  /** path → consecutive ws_edit misses (not-found / ambiguous) on that file. */
  readonly editMisses = new Map<string, number>();
  /** The loop guard's tracker: the last call's key and how many times in a row it came. */
  lastCallKey = '';
  repeatCount = 0;
  /** The ws_todo checklist; each ws_todo call replaces it whole. */
  todo: readonly TodoItem[] = [];
  /** Every web request of this session with its answer, in order; the recorder takes each step's share. */
  readonly webLog: WebExchange[] = [];
  /** Every MCP listing and call of this session with its answer, in order; the recorder takes each step's share. */
  readonly mcpLog: McpExchange[] = [];

  markSeen(path: string, text: string): void {
    this.seen.set(path, text);
  }

  hasSeen(path: string): boolean {
    return this.seen.has(path);
  }

  forget(path: string): void {
    this.seen.delete(path);
  }

  addCheckpoint(tool: string, path: string, before: string | null): Checkpoint {
    const cp: Checkpoint = { id: this.checkpoints.length + 1, tool, path, before };
    this.checkpoints.push(cp);
    return cp;
  }

  noteEditMiss(path: string): number {
    const n = (this.editMisses.get(path) ?? 0) + 1;
    this.editMisses.set(path, n);
    return n;
  }

  clearEditMisses(path: string): void {
    this.editMisses.delete(path);
  }
}
