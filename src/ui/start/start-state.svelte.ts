/**
 * The start screen's state: the task (a bundled template, or dropped files with a task of
 * one's own), the model (scripted, an OpenAI-compatible endpoint, or WebLLM with its GPU check
 * and cache), and the run settings; and from them the run configuration, or the reason there
 * is none yet. Only these methods talk to the engine client.
 */
import type {
  CachedFile,
  CatalogModel,
  EndpointProbe,
  EngineClient,
  GgufModel,
  GpuReport,
  ModelChoice,
  PathCheck,
  RecordedRunInfo,
  RunConfig,
  RunOptions,
  RunSettings,
  TaskChoice,
} from '../../worker/client.ts';
import { customModel, type CustomModelFields } from './custom-model.ts';
import { settingsProblem } from './settings-fields.ts';
import { OutsideState } from './outside-state.svelte.ts';
import {
  fromDataTransfer,
  fromFileList,
  readDropped,
  type DropSkip,
  type DroppedFile,
  type ReadableFile,
} from './dropped-files.ts';
import type { WorkspaceChoice } from './workspace-choice.svelte.ts';
import { engineAdvice, type EngineAdvice } from './engine-advice.ts';
import { parseModelSpec } from './model-spec.ts';
import { planWindow, reportedMemory, type WindowFacts, type WindowPlan } from './window-choice.ts';
import { GgufHeaderState, headerWindowFacts } from './gguf-header.svelte.ts';
import {
  loadRemembered,
  saveRemembered,
  withPreset,
  type EndpointPreset,
  type KeyValueStore,
  type Remembered,
} from './remembered.ts';

export type TaskKind = 'template' | 'files';
/** The settings as the form edits them. */
export type SettingsFields = { -readonly [K in keyof RunSettings]: RunSettings[K] };
export type ModelKind = 'scripted' | 'openai' | 'webllm' | 'gguf';

/** Where llama.cpp's GGUF file comes from: the catalog, a URL of one's own, or a file on disk. */
export interface GgufFields {
  from: 'catalog' | 'url' | 'file';
  catalogId: string;
  url: string;
}

export interface StartOptions {
  /** `?model=` of the page: preselects a model (never runs or downloads it). */
  readonly modelSpec?: string | null;
  /** Where the start screen's choices and endpoint presets are kept across reloads (localStorage), saved by `remember()`. */
  readonly storage?: KeyValueStore | null;
  /**
   * The choices as the page bundles them (worker/run-options.ts, the same code the engine
   * worker answers from): given, they are there for the first paint; without them `load()`
   * asks the engine worker.
   */
  readonly choices?: RunOptions;
}

export interface EndpointFields {
  baseUrl: string;
  model: string;
  apiKey: string;
  /** Send the tool schemas as the server's `tools` (it parses its model's own call format) instead of response_format. */
  toolsApi: boolean;
}

/** A configuration to run, or why the Run button is disabled. */
export type Readiness =
  { readonly ok: true; readonly config: RunConfig } | { readonly ok: false; readonly reason: string };

export class StartState {
  options = $state.raw<RunOptions | null>(null);
  loadError = $state<string | null>(null);

  taskKind = $state<TaskKind>('template');
  templateId = $state('starter');
  dropped = $state.raw<readonly DroppedFile[]>([]);
  /** Files the drop could not take (too big, binary, dependencies) and paths the jail refused. */
  dropSkipped = $state.raw<readonly DropSkip[]>([]);
  dropBusy = $state(false);
  ownTask = $state('');

  modelKind = $state<ModelKind>('scripted');
  endpoint = $state<EndpointFields>({
    baseUrl: 'http://127.0.0.1:11434/v1',
    model: 'qwen2.5-coder:1.5b',
    apiKey: '',
    toolsApi: false,
  });
  probe = $state.raw<EndpointProbe | null>(null);
  probing = $state(false);
  webllmId = $state('');
  /** Self-hosted weights, used instead of `webllmId` while enabled. */
  customModel = $state<CustomModelFields>({ enabled: false, url: '', baseModelId: '' });
  gpu = $state.raw<GpuReport | null>(null);
  gguf = $state<GgufFields>({ from: 'catalog', catalogId: '', url: '' });
  /** The .gguf file picked from disk (read in place, never uploaded or copied). */
  ggufFile = $state.raw<File | null>(null);
  /** The header of the GGUF URL or file on screen, once read (readGgufHeader). */
  readonly ggufHeader = new GgufHeaderState();
  /** GGUF files in the browser's cache; null until someone asks. */
  ggufCached = $state.raw<readonly CachedFile[] | null>(null);
  /** What `?model=` did: the model it preselected, or why it could not. */
  specNote = $state<{ readonly ok: boolean; readonly text: string } | null>(null);
  /** Catalog ids with cached weights; null until someone asks. */
  cached = $state.raw<readonly string[] | null>(null);
  cacheBusy = $state(false);
  cacheError = $state<string | null>(null);

  settings = $state<SettingsFields | null>(null);
  startPaused = $state(false);
  /** The outside tools' settings (web, MCP), kept apart from the run settings. */
  readonly outside: OutsideState;
  /** Named endpoints kept in this browser (never their keys). */
  presets = $state.raw<readonly EndpointPreset[]>([]);
  /** A window a person picked, for the catalog model it was picked for; otherwise the plan's choice applies. */
  windowPick = $state.raw<{ readonly model: string; readonly tokens: number } | null>(null);

  /** The recorded run that fits the chosen task, if any: scripted is offered only then. */
  readonly recorded: RecordedRunInfo | null = $derived(
    this.taskKind === 'template'
      ? (this.options?.recorded.find((r) => r.templateId === this.templateId) ?? null)
      : null,
  );
  readonly webllmModel: CatalogModel | null = $derived(
    this.options?.catalog.find((m) => m.id === this.webllmId) ?? null,
  );
  readonly ggufModel: GgufModel | null = $derived(
    this.options?.ggufCatalog.find((m) => m.id === this.gguf.catalogId) ?? null,
  );
  /** The in-tab engine that suits this browser, once WebGPU is checked. */
  readonly advice: EngineAdvice | null = $derived(this.gpu ? engineAdvice(this.gpu) : null);
  /** The catalog model whose window is sized to this device (WebLLM or llama.cpp from a list); null for the others. */
  readonly windowModel: {
    readonly key: string;
    readonly facts: WindowFacts;
    readonly engine: 'webllm' | 'gguf';
  } | null = $derived(this.#windowModel());
  /** The windows that model can have here, what each costs, and the one picked for this device. */
  readonly windowPlan: WindowPlan | null = $derived(
    this.windowModel ? planWindow(this.windowModel.facts, reportedMemory(this.gpu, this.windowModel.engine)) : null,
  );
  /** The window a catalog model runs at: the person's pick for it, else the plan's; null where the number field applies. */
  readonly windowTokens: number | null = $derived.by(() => {
    const plan = this.windowPlan;
    const pick = this.windowPick;
    if (!plan) return null;
    const picked = pick && pick.model === this.windowModel?.key && plan.options.some((o) => o.tokens === pick.tokens);
    return picked ? pick.tokens : plan.chosen;
  });
  readonly readiness: Readiness = $derived(this.#readiness());

  readonly #options: StartOptions;

  /** `workspace` is the workspace choice; without it, runs use the worker's default (memory). */
  constructor(
    private readonly client: EngineClient,
    readonly workspace?: WorkspaceChoice,
    options: StartOptions = {},
  ) {
    this.#options = options;
    this.outside = new OutsideState(options.storage);
    const kept = loadRemembered(options.storage);
    this.#kept = kept;
    if (kept.modelKind) this.modelKind = kept.modelKind;
    if (kept.endpoint) this.endpoint = { ...this.endpoint, ...kept.endpoint };
    if (kept.ggufUrl) this.gguf.url = kept.ggufUrl;
    if (kept.ggufFrom) this.gguf.from = kept.ggufFrom;
    if (kept.presets) this.presets = kept.presets;
    if (options.choices) this.#useOptions(options.choices);
  }

  /** What the last visit kept; catalog picks and settings apply once the choices are known. */
  readonly #kept: Remembered;

  /**
   * Keeps the start screen's choices for the next visit: the kind of model, the catalog picks,
   * the endpoint's URL and model (never its key), the GGUF URL, the step limit, the temperature,
   * the tool set and the presets. The start screen calls it whenever one of them changes.
   */
  remember(): void {
    const s = this.settings;
    saveRemembered(this.#options.storage, {
      modelKind: this.modelKind,
      endpoint: { baseUrl: this.endpoint.baseUrl, model: this.endpoint.model, toolsApi: this.endpoint.toolsApi },
      ...(this.webllmId && { webllmId: this.webllmId }),
      ...(this.gguf.catalogId && { ggufCatalogId: this.gguf.catalogId }),
      ...(this.gguf.from !== 'file' && { ggufFrom: this.gguf.from }),
      ...(this.gguf.url && { ggufUrl: this.gguf.url }),
      ...(s && { maxSteps: s.maxSteps, temperature: s.temperature, toolSet: s.toolSet }),
      ...(this.presets.length && { presets: this.presets }),
    });
  }

  /** Saves the endpoint's fields (not its key) as a preset called `name`; an empty name is refused with why. */
  savePreset(name: string): string | null {
    const n = name.trim();
    if (!n) return 'Name the preset first.';
    const { baseUrl, model, toolsApi } = this.endpoint;
    this.presets = withPreset(this.presets, { name: n, baseUrl, model, toolsApi });
    this.remember();
    return null;
  }

  /** Fills the endpoint's fields from the preset called `name` (the key field is left as it is). */
  usePreset(name: string): void {
    const p = this.presets.find((q) => q.name === name);
    if (!p) return;
    this.endpoint = { ...this.endpoint, baseUrl: p.baseUrl, model: p.model, toolsApi: p.toolsApi };
    this.probe = null;
  }

  /** Forgets the preset called `name`. */
  deletePreset(name: string): void {
    this.presets = this.presets.filter((p) => p.name !== name);
    this.remember();
  }

  /** Loads the choices and detects the GPU; safe to call again (after an engine restart). */
  async load(): Promise<void> {
    let options: RunOptions;
    try {
      options = this.#options.choices ?? (await this.client.runOptions());
      this.#useOptions(options);
    } catch (e) {
      this.loadError = message(e);
      return;
    }
    try {
      this.gpu = await this.client.gpuReport();
    } catch (e) {
      this.gpu = {
        ok: false,
        webgpu: false,
        adapter: false,
        f16: false,
        fallback: false,
        explanation: `WebGPU could not be checked: ${message(e)}`,
      };
    }
    // Without shader-f16 the q4f16 default cannot run: offer a build that can.
    if (this.gpu.ok && !this.gpu.f16 && this.webllmModel?.needsF16) {
      const runnable =
        options.catalog.find((m) => m.id === this.webllmId.replace('q4f16', 'q4f32')) ??
        options.catalog.find((m) => !m.needsF16);
      if (runnable) this.webllmId = runnable.id;
    }
    this.#applyModelSpec();
  }

  #useOptions(options: RunOptions): void {
    this.options = options;
    const kept = this.#kept;
    this.settings ??= {
      ...options.defaults,
      ...(kept.maxSteps !== undefined && { maxSteps: kept.maxSteps }),
      ...(kept.temperature !== undefined && { temperature: kept.temperature }),
      ...(kept.toolSet !== undefined && { toolSet: kept.toolSet }),
    };
    if (!this.webllmId)
      this.webllmId = options.catalog.some((m) => m.id === kept.webllmId) ? kept.webllmId! : options.defaultModelId;
    if (!this.gguf.catalogId)
      this.gguf.catalogId = options.ggufCatalog.some((m) => m.id === kept.ggufCatalogId)
        ? kept.ggufCatalogId!
        : options.defaultGgufId;
    if (!this.customModel.baseModelId) this.customModel.baseModelId = options.defaultModelId;
    this.loadError = null;
  }

  /** `?model=` preselects its model once; it never starts a run or a download. */
  #applyModelSpec(): void {
    const spec = this.#options.modelSpec?.trim();
    if (!spec || this.specNote || !this.options) return;
    const parsed = parseModelSpec(
      spec,
      this.options.catalog.map((m) => m.id),
    );
    if ('reason' in parsed) {
      this.specNote = { ok: false, text: parsed.reason };
      return;
    }
    switch (parsed.kind) {
      case 'gguf': {
        const listed = this.options.ggufCatalog.find((m) => m.url === parsed.url);
        this.modelKind = 'gguf';
        this.gguf = listed
          ? { ...this.gguf, from: 'catalog', catalogId: listed.id }
          : { ...this.gguf, from: 'url', url: parsed.url };
        break;
      }
      case 'webllm':
        this.modelKind = 'webllm';
        this.webllmId = parsed.modelId;
        break;
      case 'openai':
        this.modelKind = 'openai';
        this.endpoint = { ...this.endpoint, baseUrl: parsed.baseUrl, model: parsed.model };
        break;
    }
    this.specNote = {
      ok: true,
      text: `The link preselected ${spec}. Nothing is downloaded or run until you press Run.`,
    };
  }

  /** Picks the window of the catalog model on screen (one of the plan's options). */
  pickWindow(tokens: number): void {
    const model = this.windowModel;
    if (model) this.windowPick = { model: model.key, tokens };
  }

  #windowModel(): StartState['windowModel'] {
    if (this.modelKind === 'webllm' && !this.customModel.enabled && this.webllmModel)
      return { key: `webllm:${this.webllmModel.id}`, facts: this.webllmModel, engine: 'webllm' };
    if (this.modelKind !== 'gguf') return null;
    if (this.gguf.from === 'catalog' && this.ggufModel)
      return { key: `gguf:${this.ggufModel.id}`, facts: this.ggufModel, engine: 'gguf' };
    // A URL or file of one's own is sized the same way once its header is read.
    const key = this.ggufSourceKey;
    const read = this.ggufHeader.readFor(key);
    const facts = read?.state === 'read' ? headerWindowFacts(read.facts) : null;
    return facts ? { key: `gguf:${key}`, facts, engine: 'gguf' } : null;
  }

  /** Names the GGUF URL or file on screen (a file by its name, size and date); null for a catalog model or none. */
  get ggufSourceKey(): string | null {
    if (this.modelKind !== 'gguf' || this.gguf.from === 'catalog') return null;
    const choice = this.#ggufChoice();
    if ('reason' in choice || choice.kind !== 'gguf') return null;
    const s = choice.source;
    return 'url' in s ? s.url : `${s.name} · ${s.file.size} · ${this.ggufFile?.lastModified ?? 0}`;
  }

  /** Reads the header of the GGUF URL or file on screen (its first bytes only), for what it was trained on and its window. */
  async readGgufHeader(): Promise<void> {
    const key = this.ggufSourceKey;
    const choice = this.#ggufChoice();
    if (key === null || 'reason' in choice || choice.kind !== 'gguf') return;
    const source = choice.source;
    await this.ggufHeader.load(
      key,
      () => this.client.ggufFacts(source),
      () => this.ggufSourceKey,
    );
  }

  setTaskKind(kind: TaskKind): void {
    this.taskKind = kind;
    // The recorded turns fit only their own task: move off scripted when they no longer apply.
    if (kind === 'files' && this.modelKind === 'scripted') this.modelKind = this.advice?.kind ?? 'openai';
  }

  /** Reads dropped or picked files, then asks the worker's jail about every path. */
  async addFiles(source: DataTransfer | FileList): Promise<void> {
    const limits = this.options?.dropLimits;
    if (!limits) return;
    this.dropBusy = true;
    try {
      const readable: ReadableFile[] = 'items' in source ? await fromDataTransfer(source) : fromFileList(source);
      const read = await readDropped(readable, limits);
      const checks: readonly PathCheck[] = read.files.length
        ? await this.client.checkPaths(read.files.map((f) => f.path))
        : [];
      const refused = checks
        .filter((c) => c.stored === undefined)
        .map((c) => ({ path: c.path, reason: c.reason ?? 'refused' }));
      const accepted = new Set(checks.filter((c) => c.stored !== undefined).map((c) => c.path));
      this.dropped = read.files.filter((f) => accepted.has(f.path));
      this.dropSkipped = [...read.skipped, ...refused];
      this.setTaskKind('files');
    } catch (e) {
      this.dropSkipped = [{ path: 'the drop', reason: message(e) }];
    } finally {
      this.dropBusy = false;
    }
  }

  clearFiles(): void {
    this.dropped = [];
    this.dropSkipped = [];
  }

  async probeEndpoint(): Promise<void> {
    this.remember();
    this.probing = true;
    this.probe = null;
    try {
      this.probe = await this.client.probeEndpoint(this.endpoint.baseUrl, this.endpoint.apiKey || undefined);
    } catch (e) {
      this.probe = { ok: false, message: message(e) };
    } finally {
      this.probing = false;
    }
  }

  /** Lists cached WebLLM weights (the model worker loads WebLLM for this, once). */
  async refreshCache(): Promise<void> {
    await this.#cacheWork(() => this.client.webllmCache());
  }

  async deleteCached(modelId: string): Promise<void> {
    await this.#cacheWork(() => this.client.webllmDelete(modelId));
  }

  /** Lists the GGUF files in the browser's cache (starts llama.cpp's worker, not llama.cpp). */
  async refreshGgufCache(): Promise<void> {
    await this.#ggufCacheWork(() => this.client.ggufCache());
  }

  async deleteGguf(url: string): Promise<void> {
    await this.#ggufCacheWork(() => this.client.ggufDelete(url));
  }

  async #ggufCacheWork(work: () => Promise<readonly CachedFile[]>): Promise<void> {
    this.cacheBusy = true;
    this.cacheError = null;
    try {
      this.ggufCached = await work();
    } catch (e) {
      this.cacheError = message(e);
    } finally {
      this.cacheBusy = false;
    }
  }

  async #cacheWork(work: () => Promise<readonly string[]>): Promise<void> {
    this.cacheBusy = true;
    this.cacheError = null;
    try {
      this.cached = await work();
    } catch (e) {
      this.cacheError = message(e);
    } finally {
      this.cacheBusy = false;
    }
  }

  #readiness(): Readiness {
    const fields = this.settings;
    if (!this.options || !fields) return { ok: false, reason: 'Loading the choices…' };
    // A catalog model's window comes from its own choice, not from the number field.
    const settings = this.windowTokens === null ? fields : { ...fields, contextTokens: this.windowTokens };
    // An emptied number field binds as null: name it before the worker has to refuse it.
    const problem = settingsProblem(settings);
    if (problem) return { ok: false, reason: problem };
    const task = this.#task();
    if ('reason' in task) return { ok: false, reason: task.reason };
    const model = this.#model();
    if ('reason' in model) return { ok: false, reason: model.reason };
    const place = this.workspace?.forRun;
    if (place && !place.ok) return { ok: false, reason: place.reason };
    if (this.outside.problem) return { ok: false, reason: this.outside.problem };
    const outside = this.outside.choice;
    return {
      ok: true,
      config: {
        task,
        model,
        settings: { ...settings },
        paused: this.startPaused,
        ...(place && { workspace: place.workspace }),
        ...(outside && { outside }),
      },
    };
  }

  #task(): TaskChoice | { reason: string } {
    if (this.taskKind === 'template') return { kind: 'template', templateId: this.templateId };
    if (this.dropped.length === 0) return { reason: 'Drop files (or pick them) to run on your own project.' };
    if (!this.ownTask.trim()) return { reason: 'Say what the agent should do with your files.' };
    return { kind: 'files', files: Object.fromEntries(this.dropped.map((f) => [f.path, f.text])), task: this.ownTask };
  }

  #model(): ModelChoice | { reason: string } {
    switch (this.modelKind) {
      case 'scripted':
        return this.recorded
          ? { kind: 'scripted', recordedId: this.recorded.id }
          : {
              reason:
                'The scripted model has recorded turns only for the starter task; pick another model for your own files.',
            };
      case 'openai': {
        const { baseUrl, model, apiKey, toolsApi } = this.endpoint;
        if (!/^https?:\/\/[^/\s]+/.test(baseUrl.trim()))
          return { reason: 'Give the endpoint a base URL starting with http:// or https://.' };
        if (!model.trim()) return { reason: 'Name the model the endpoint should run.' };
        return {
          kind: 'openai',
          baseUrl: baseUrl.trim(),
          model: model.trim(),
          ...(apiKey && { apiKey }),
          ...(toolsApi && { toolsApi }),
        };
      }
      case 'webllm':
        if (this.gpu && !this.gpu.ok)
          return {
            reason:
              'WebLLM cannot run in this browser (see why above); pick llama.cpp in this tab, an endpoint or the scripted model.',
          };
        if (this.customModel.enabled) return this.#customModel();
        if (!this.webllmModel) return { reason: 'Pick a WebLLM model.' };
        if (this.webllmModel.needsF16 && this.gpu && !this.gpu.f16)
          return { reason: `${this.webllmModel.label} needs shader-f16, which this GPU lacks.` };
        return { kind: 'webllm', modelId: this.webllmModel.id };
      case 'gguf':
        return this.#ggufChoice();
      default: {
        const never: never = this.modelKind;
        throw new TypeError(`unknown model kind ${JSON.stringify(never)}`);
      }
    }
  }

  #ggufChoice(): ModelChoice | { reason: string } {
    switch (this.gguf.from) {
      case 'catalog': {
        const m = this.ggufModel;
        if (!m) return { reason: 'Pick a GGUF model for llama.cpp.' };
        return { kind: 'gguf', source: { url: m.url }, label: m.label };
      }
      case 'url': {
        const url = this.gguf.url.trim();
        if (!/^https?:\/\/[^/\s]+\/\S+/.test(url))
          return {
            reason: 'Give the URL of a .gguf file (https://…/model.gguf; its server must allow this page with CORS).',
          };
        return { kind: 'gguf', source: { url } };
      }
      case 'file': {
        const file = this.ggufFile;
        if (!file) return { reason: 'Pick a .gguf file from your disk.' };
        return { kind: 'gguf', source: { file, name: file.name } };
      }
    }
  }

  #customModel(): ModelChoice | { reason: string } {
    const catalog = this.options?.catalog ?? [];
    const custom = customModel(
      this.customModel,
      catalog.map((m) => m.id),
    );
    if ('reason' in custom) return custom;
    // The base model's library is what runs: its shader-f16 need is the custom model's too.
    const base = catalog.find((m) => m.id === custom.baseModelId);
    if (base?.needsF16 && this.gpu && !this.gpu.f16)
      return {
        reason: `The custom model uses the library of ${base.label}, which needs shader-f16; this GPU lacks it, so serve a q4f32 build and pick its q4f32 base model.`,
      };
    return { kind: 'webllm', modelId: custom.id, custom };
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
