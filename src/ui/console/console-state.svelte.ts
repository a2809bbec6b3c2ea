/**
 * The tool console's state, in one place: the engine status, the tool list, the form values
 * per tool, the last call and its result, the workspace tree and the file in the viewer.
 * Components read it and call its methods; only these methods talk to the engine client.
 */
import type {
  EngineClient,
  EngineStatus,
  FileView,
  ToolInfo,
  ToolResult,
  WorkspaceSnapshot,
} from '../../worker/client.ts';
import { buildArgs, fieldsOf, initialValues, parseRawArgs, type FieldValue, type FormField } from './schema-form.ts';

/** One finished call, as the result pane shows it. */
export interface CallRecord {
  /** 1 for the first call since the page opened, counting on across resets. */
  readonly seq: number;
  readonly tool: string;
  /** The arguments exactly as they were sent. */
  readonly args: unknown;
  readonly result: ToolResult;
  readonly ms: number;
}

export type ArgsMode = 'form' | 'json';

/** The viewer's content: a file, or why it cannot be shown. */
export type ViewerState =
  | { readonly path: string; readonly view: FileView; readonly error: null }
  | { readonly path: string; readonly view: null; readonly error: string };

export class ConsoleState {
  status = $state<EngineStatus>({ state: 'starting' });
  tools = $state<readonly ToolInfo[]>([]);
  selectedName = $state<string | null>(null);
  /** tool name → field name → what the input holds; kept while switching tools. */
  values = $state<Record<string, Record<string, FieldValue>>>({});
  mode = $state<ArgsMode>('form');
  rawArgs = $state('{}');
  last = $state<CallRecord | null>(null);
  snapshot = $state<WorkspaceSnapshot | null>(null);
  viewer = $state<ViewerState | null>(null);
  busy = $state(false);
  /** A problem talking to the engine (not a tool result: those are shown as results). */
  error = $state<string | null>(null);
  /** A one-line notice after a reset or restart. */
  notice = $state<string | null>(null);
  #calls = 0;

  readonly selected: ToolInfo | null = $derived(this.tools.find((t) => t.name === this.selectedName) ?? null);
  readonly fields: readonly FormField[] = $derived(this.selected ? fieldsOf(this.selected.inputSchema) : []);
  /** What Call would send now, or why it cannot. */
  readonly pending = $derived.by(() => {
    if (this.mode === 'json' || (this.selected && this.fields.length === 0)) return parseRawArgs(this.rawArgs);
    const built = buildArgs(this.fields, this.formValues);
    return built.ok
      ? { ok: true as const, args: built.args }
      : { ok: false as const, error: 'Fix the marked fields first.', fieldErrors: built.errors };
  });

  constructor(private readonly client: EngineClient) {}

  /** Follows the engine's status; returns the cleanup for the component's $effect. */
  start(): () => void {
    this.#onStatus(this.client.status);
    return this.client.onStatus((s) => this.#onStatus(s));
  }

  get formValues(): Record<string, FieldValue> {
    const name = this.selectedName;
    return (name && this.values[name]) || {};
  }

  setValue(field: string, value: FieldValue): void {
    const name = this.selectedName;
    if (!name) return;
    this.values[name] = { ...this.formValues, [field]: value };
  }

  select(name: string): void {
    this.selectedName = name;
    const tool = this.tools.find((t) => t.name === name);
    if (tool && !this.values[name]) this.values[name] = initialValues(fieldsOf(tool.inputSchema));
    if (this.mode === 'json' || this.fields.length === 0) this.rawArgs = this.#formAsJson();
  }

  /** Switches between the generated form and raw JSON, carrying the current arguments across. */
  setMode(mode: ArgsMode): void {
    if (mode === 'json' && this.mode === 'form') this.rawArgs = this.#formAsJson();
    this.mode = mode;
  }

  async call(): Promise<void> {
    const tool = this.selectedName;
    const pending = this.pending;
    if (!tool || !pending.ok || this.busy) return;
    await this.#run(async () => {
      const t0 = performance.now();
      const result = await this.client.callTool(tool, pending.args);
      this.last = { seq: ++this.#calls, tool, args: pending.args, result, ms: Math.round(performance.now() - t0) };
      this.notice = null;
      await this.#refreshFiles();
    });
  }

  async openFile(path: string): Promise<void> {
    await this.#run(() => this.#loadViewer(path));
  }

  closeFile(): void {
    this.viewer = null;
  }

  /** Puts `path` into the selected tool's path field, when it has one. */
  usePath(path: string): void {
    if (this.fields.some((f) => f.name === 'path')) this.setValue('path', path);
  }

  async reset(): Promise<void> {
    await this.#run(async () => {
      this.snapshot = await this.client.reset();
      this.last = null;
      this.viewer = null;
      this.notice =
        'Workspace reset: the starter files are back and the engine session (files read, loop guard) starts fresh.';
    });
  }

  restart(): void {
    this.error = null;
    this.last = null;
    this.viewer = null;
    this.snapshot = null;
    this.client.restart();
  }

  #onStatus(s: EngineStatus): void {
    this.status = s;
    if (s.state === 'ready') void this.#run(() => this.#load());
    if (s.state === 'crashed') this.busy = false;
  }

  async #load(): Promise<void> {
    this.tools = await this.client.listTools();
    if (!this.selected && this.tools.length) this.select(this.tools[0]!.name);
    this.snapshot = await this.client.fileTree();
  }

  async #refreshFiles(): Promise<void> {
    this.snapshot = await this.client.fileTree();
    const open = this.viewer?.path;
    if (open) await this.#loadViewer(open);
  }

  async #loadViewer(path: string): Promise<void> {
    try {
      this.viewer = { path, view: await this.client.readFile(path), error: null };
    } catch (e) {
      // A file the last call deleted or moved: say so in the viewer, not as an engine problem.
      this.viewer = { path, view: null, error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** Runs one engine interaction with the busy flag set; an engine failure becomes `error`. */
  async #run(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await work();
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  #formAsJson(): string {
    const built = buildArgs(this.fields, this.formValues);
    return JSON.stringify(built.ok ? built.args : {}, null, 2);
  }
}
