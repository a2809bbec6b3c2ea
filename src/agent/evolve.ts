/**
 * The edit-format bandit: which way of editing (search_replace = ws_edit, unified_diff =
 * ws_patch, whole_file = ws_write) works for a model family in a language. Thompson sampling
 * over Beta posteriors with fractional rewards: a clean edit earns 1, an edit that only landed
 * on a looser ladder rung earns less (the drift is a cost), a miss earns 0. A seeded RNG makes
 * the choice reproducible; the table is plain JSON for storage and display.
 */
import type { Note } from '../engine/result.ts';
import type { Step } from './step.ts';

export type EditFormat = 'search_replace' | 'unified_diff' | 'whole_file';

export const EDIT_FORMATS: readonly EditFormat[] = ['search_replace', 'unified_diff', 'whole_file'];

/** The tool each format is used through. */
export const FORMAT_TOOL: Readonly<Record<EditFormat, string>> = {
  search_replace: 'ws_edit',
  unified_diff: 'ws_patch',
  whole_file: 'ws_write',
};

export interface ArmStats {
  /** Beta posterior parameters, starting at 1/1 (uniform). */
  readonly alpha: number;
  readonly beta: number;
  readonly pulls: number;
  /** How often each outcome occurred: a rung id, `exact`, or `miss`. */
  readonly rungs: Readonly<Record<string, number>>;
}

/** The serialisable table: `family|language` → format → stats. */
export interface BanditTable {
  readonly v: 1;
  readonly arms: Readonly<Record<string, Readonly<Record<EditFormat, ArmStats>>>>;
}

/** One row of the table for display. */
export interface BanditRow {
  readonly family: string;
  readonly language: string;
  readonly format: EditFormat;
  readonly pulls: number;
  /** Posterior mean reward. */
  readonly mean: number;
  readonly rungs: Readonly<Record<string, number>>;
}

/** Where a table lives between runs: a JSON file for the CLI, IndexedDB in the browser. */
export interface BanditStore {
  load(): Promise<BanditTable | null>;
  save(table: BanditTable): Promise<void>;
}

/** Reward for an applied edit by the rung that matched: the looser the rung, the more the model drifted. */
const RUNG_REWARD: Readonly<Record<string, number>> = {
  exact: 1,
  'trailing-ws': 0.9,
  indent: 0.8,
  'blank-lines': 0.8,
  'quotes-dashes': 0.7,
  anchors: 0.6,
};
/** An applied edit whose old_str carried the ws_read gutter keeps this share of its reward. */
const GUTTER_FACTOR = 0.8;
/** Failures that are not the edit's fault (a person declined, the loop guard) teach nothing. */
const NOT_THE_FORMAT = new Set(['loop-guard']);

const FRESH: ArmStats = Object.freeze({ alpha: 1, beta: 1, pulls: 0, rungs: Object.freeze({}) });

export class EditFormatBandit {
  private arms: Record<string, Record<EditFormat, ArmStats>>;
  private readonly random: () => number;

  constructor(table: BanditTable | null = null, seed = 1) {
    this.arms = structuredClone((table?.arms ?? {}) as Record<string, Record<EditFormat, ArmStats>>);
    this.random = mulberry32(seed);
  }

  /** Samples each format's posterior and returns the best draw. */
  choose(family: string, language: string): EditFormat {
    const row = this.row(family, language);
    let best: EditFormat = EDIT_FORMATS[0]!;
    let bestDraw = -1;
    for (const f of EDIT_FORMATS) {
      const draw = sampleBeta(row[f].alpha, row[f].beta, this.random);
      if (draw > bestDraw) [best, bestDraw] = [f, draw];
    }
    return best;
  }

  /** Learns from a step when it was an edit; returns the reward given, or null when the step taught nothing. */
  learn(family: string, step: Step): number | null {
    const format = step.call ? formatOfTool(step.call.tool) : undefined;
    if (!format || !step.result || step.approval === 'denied' || step.approval === 'unasked') return null;
    if (step.result.notes.some((n) => NOT_THE_FORMAT.has(n.kind))) return null;
    // Creating a new file with ws_write is not a choice of edit format: there was nothing to edit.
    if (step.result.ok && step.result.changes.length && step.result.changes.every((c) => c.before === null))
      return null;
    const path = (step.call!.args as { path?: unknown } | null)?.path;
    const outcome = editOutcome(step.result.ok, step.result.notes);
    this.record(family, languageOf(typeof path === 'string' ? path : ''), format, outcome.reward, outcome.rungs);
    return outcome.reward;
  }

  /** One pull of `format` with `reward`; each outcome (a drift, `exact` or `miss`) is counted. */
  record(
    family: string,
    language: string,
    format: EditFormat,
    reward: number,
    outcomes: string | readonly string[],
  ): void {
    const r = Math.min(1, Math.max(0, reward));
    const arm = this.row(family, language)[format];
    const rungs = { ...arm.rungs };
    for (const o of typeof outcomes === 'string' ? [outcomes] : outcomes) rungs[o] = (rungs[o] ?? 0) + 1;
    this.row(family, language)[format] = {
      alpha: arm.alpha + r,
      beta: arm.beta + (1 - r),
      pulls: arm.pulls + 1,
      rungs,
    };
  }

  toJSON(): BanditTable {
    return { v: 1, arms: structuredClone(this.arms) };
  }

  rows(): BanditRow[] {
    return Object.entries(this.arms).flatMap(([key, row]) => {
      const [family = '', language = ''] = key.split('|');
      return EDIT_FORMATS.map((format) => ({
        family,
        language,
        format,
        pulls: row[format].pulls,
        mean: row[format].alpha / (row[format].alpha + row[format].beta),
        rungs: row[format].rungs,
      }));
    });
  }

  private row(family: string, language: string): Record<EditFormat, ArmStats> {
    const key = `${family}|${language}`;
    return (this.arms[key] ??= { search_replace: FRESH, unified_diff: FRESH, whole_file: FRESH });
  }
}

/** Reads a stored table, checking its shape: a bad file starts a fresh table rather than a crash. */
export function parseBanditTable(value: unknown): BanditTable | null {
  if (!value || typeof value !== 'object' || (value as { v?: unknown }).v !== 1) return null;
  const arms = (value as { arms?: unknown }).arms;
  if (!arms || typeof arms !== 'object') return null;
  for (const row of Object.values(arms)) {
    for (const f of EDIT_FORMATS) {
      const a = (row as Record<string, Partial<ArmStats>> | null)?.[f];
      if (
        !a ||
        typeof a.alpha !== 'number' ||
        typeof a.beta !== 'number' ||
        typeof a.pulls !== 'number' ||
        typeof a.rungs !== 'object'
      )
        return null;
    }
  }
  return value as BanditTable;
}

export function formatOfTool(tool: string): EditFormat | undefined {
  return EDIT_FORMATS.find((f) => FORMAT_TOOL[f] === tool);
}

/**
 * The reward and outcome labels of one edit result: every drift the rung notes name is counted,
 * and each one scales the reward by its own rung's (two drifts cost more than either alone).
 */
export function editOutcome(ok: boolean, notes: readonly Note[]): { reward: number; rungs: readonly string[] } {
  if (!ok) return { reward: 0, rungs: ['miss'] };
  const drifts = [...new Set(notes.filter((n) => n.kind === 'rung').map((n) => n.detail ?? 'unknown'))];
  const base = drifts.reduce((r, d) => r * (RUNG_REWARD[d] ?? 0.5), 1);
  return {
    reward: notes.some((n) => n.kind === 'gutter-stripped') ? base * GUTTER_FACTOR : base,
    rungs: drifts.length ? drifts : ['exact'],
  };
}

const LANGUAGES: Readonly<Record<string, string>> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  go: 'go',
  json: 'json',
  md: 'markdown',
  rs: 'rust',
  css: 'css',
  html: 'html',
  svelte: 'svelte',
};

/** The language a path's extension names; `other` when unknown. */
export function languageOf(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (ext && LANGUAGES[ext]) || 'other';
}

/** The most common known language among `paths` (ties: the first seen); `other` when none is known. */
export function dominantLanguage(paths: Iterable<string>): string {
  const counts = new Map<string, number>();
  for (const p of paths) {
    const lang = languageOf(p);
    if (lang !== 'other' && lang !== 'json' && lang !== 'markdown') counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  let best = 'other';
  let n = 0;
  for (const [lang, c] of counts) if (c > n) [best, n] = [lang, c];
  return best;
}

/** A small seeded PRNG (mulberry32): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Beta(a, b) as X/(X+Y) with X ~ Gamma(a), Y ~ Gamma(b); a, b ≥ 1 here. */
function sampleBeta(a: number, b: number, random: () => number): number {
  const x = sampleGamma(a, random);
  const y = sampleGamma(b, random);
  return x / (x + y);
}

/** Marsaglia–Tsang for shape ≥ 1. */
function sampleGamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = sampleNormal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Box–Muller. */
function sampleNormal(random: () => number): number {
  const u = 1 - random(); // (0, 1]: log(0) would be -Infinity
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
