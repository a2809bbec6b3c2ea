/**
 * The workspace at the inspected step: its whole file tree and one open file, fetched from the
 * worker's per-step captures. The open file stays open while the step changes, so stepping
 * through a run shows the same file as it was at each step. The latest request wins: an
 * answer for a step no longer selected is dropped.
 */
import type { EngineClient, FileView, WorkspaceSnapshot } from '../../worker/client.ts';
import { readRunFiles, type RunFiles } from './run-files.ts';

/** Which capture: a run and a step (0 = before step 1). */
export interface At {
  readonly runId: number;
  readonly step: number;
}

export type OpenFile =
  | { readonly path: string; readonly view: FileView; readonly error: null }
  | { readonly path: string; readonly view: null; readonly error: string };

export class TimeTravel {
  at = $state.raw<At | null>(null);
  tree = $state.raw<WorkspaceSnapshot | null>(null);
  /** The path a person opened; kept across steps. */
  path = $state<string | null>(null);
  file = $state.raw<OpenFile | null>(null);
  error = $state<string | null>(null);
  #request = 0;

  constructor(private readonly client: EngineClient) {}

  /** Shows the workspace after `step` of run `runId`. */
  async show(runId: number, step: number): Promise<void> {
    if (this.at?.runId === runId && this.at.step === step && this.tree) return;
    if (this.at?.runId !== runId) {
      this.path = null;
      this.file = null;
    }
    this.at = { runId, step };
    const request = ++this.#request;
    try {
      const tree = await this.client.runTree(runId, step);
      if (request !== this.#request) return;
      this.tree = tree;
      this.error = null;
      if (this.path) await this.#load(request, this.path);
    } catch (e) {
      if (request === this.#request) this.error = e instanceof Error ? e.message : String(e);
    }
  }

  async open(path: string): Promise<void> {
    this.path = path;
    await this.#load(++this.#request, path);
  }

  close(): void {
    this.path = null;
    this.file = null;
  }

  /** Every text file of run `runId` after `step`, for a download (the view's own state is left as it is). */
  filesAt(runId: number, step: number): Promise<RunFiles> {
    return readRunFiles(this.client, runId, step);
  }

  async #load(request: number, path: string): Promise<void> {
    const at = this.at;
    if (!at) return;
    let file: OpenFile;
    try {
      file = { path, view: await this.client.runFile(at.runId, at.step, path), error: null };
    } catch (e) {
      // A file that did not exist at this step: say so where it would be shown.
      file = { path, view: null, error: e instanceof Error ? e.message : String(e) };
    }
    if (request === this.#request) this.file = file;
  }
}
