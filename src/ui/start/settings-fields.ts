/**
 * The numeric run settings as the start screen shows them: label, one line on what each
 * changes, and its bounds (the worker checks the same bounds again).
 */
import type { RunSettings } from '../../worker/client.ts';

export type NumberSetting = Exclude<keyof RunSettings, 'approval' | 'toolSet'>;

export interface NumberField {
  readonly key: NumberSetting;
  readonly label: string;
  readonly help: string;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  /** Shown only for the scripted model. */
  readonly scriptedOnly?: boolean;
}

export const NUMBER_FIELDS: readonly NumberField[] = [
  {
    key: 'maxSteps',
    label: 'Max steps',
    help: 'The run stops here if the model has not sent done.',
    min: 1,
    max: 200,
    step: 1,
  },
  {
    key: 'temperature',
    label: 'Temperature',
    help: '0 = always the likeliest token (most repeatable).',
    min: 0,
    max: 2,
    step: 0.1,
  },
  {
    key: 'seed',
    label: 'Seed',
    help: 'With temperature 0 and a seed, runs repeat as far as the model allows.',
    min: 0,
    max: 2147483647,
    step: 1,
  },
  {
    key: 'maxToolChars',
    label: 'Result cap (characters)',
    help: "Longer tool results keep their head and tail; a result's first line, last line and the truncation note are never cut (below 1000, a result that needs more gets its cap raised, and its note says so).",
    min: 500,
    max: 200000,
    step: 100,
  },
  {
    key: 'readWindowLines',
    label: 'Read window (lines)',
    help: 'Lines ws_read shows when the model gives no limit.',
    min: 10,
    max: 2000,
    step: 10,
  },
  {
    key: 'contextTokens',
    label: 'Context window (tokens)',
    help: 'The prompt of every step is fitted into this.',
    min: 2048,
    max: 131072,
    step: 256,
  },
  {
    key: 'paceMs',
    label: 'Pause between scripted steps (ms)',
    help: 'So you can watch the steps arrive.',
    min: 0,
    max: 10000,
    step: 100,
    scriptedOnly: true,
  },
];

/** What is wrong with one field's value (empty, or outside its bounds), with what to do; null when it is usable. */
export function fieldProblem(f: NumberField, value: number | null): string | null {
  if (value === null || !Number.isFinite(value)) return `Fill in “${f.label}”.`;
  if (value < f.min || value > f.max) return `“${f.label}” must be between ${f.min} and ${f.max}.`;
  return null;
}

/** The first field that is empty or outside its bounds, with what to do; null when all are usable. */
export function settingsProblem(settings: RunSettings): string | null {
  for (const f of NUMBER_FIELDS) {
    const problem = fieldProblem(f, settings[f.key] as number | null);
    if (problem) return problem;
  }
  return null;
}
