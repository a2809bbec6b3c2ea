/**
 * Whether an eval's numbers measure a model: scripted turns (recorded, or the reference
 * solution applied) and the random-weight test model check the pipeline only, and every place
 * that shows the numbers says so with the note here.
 */
import type { ModelInfo, ModelLabel } from './results-schema.ts';

/** The model spec of the scripted model that applies each task's reference solution. */
export const REFERENCE_MODEL = 'reference';

/** `general.name` of the generated random-weight GGUF (tests/support/gguf/test-model.ts). */
export const TEST_MODEL_NAMES: readonly string[] = ['slm-test-tiny-random'];

const NOTES: Readonly<Record<ModelLabel, string>> = {
  scripted:
    'Scripted turns, not a live model: these pass rates check the eval pipeline and mean nothing about any model.',
  'test-model':
    'The random-weight test model, not a language model (its calls are valid only because decoding is constrained): these pass rates mean nothing.',
  real: 'A live model: the pass rates measure it on this suite, within the 95% intervals shown.',
};

/** The label of a model spec; `ggufName` is the GGUF's `general.name` when the spec is a local GGUF. */
export function modelLabel(spec: string, ggufName?: string): ModelLabel {
  if (spec === REFERENCE_MODEL || spec.startsWith('scripted:')) return 'scripted';
  if (spec.startsWith('gguf:') && ggufName !== undefined && TEST_MODEL_NAMES.includes(ggufName)) return 'test-model';
  return 'real';
}

export function modelInfo(spec: string, ggufName?: string): ModelInfo {
  const label = modelLabel(spec, ggufName);
  return { id: spec, label, note: NOTES[label] };
}

/** True when the numbers measure nothing: every table and report leads with the note. */
export function meaningless(model: ModelInfo): boolean {
  return model.label !== 'real';
}
