/**
 * The reference model: scripted turns that apply a task's reference solution — read each file
 * it replaces, write it whole, delete what it removes, then done. A pipeline check for `slm eval`
 * and the Eval page (its runs are labelled scripted), never a model.
 */
import { ScriptedModel } from '../agent/models/scripted.ts';
import type { EvalTask } from './task.ts';
import { REFERENCE_MODEL } from './model-label.ts';

const call = (tool: string, args: object) => JSON.stringify({ tool, args });

/** The raw outputs that apply the solution, one per step. */
export function referenceOutputs(task: EvalTask): string[] {
  const out: string[] = [];
  for (const [path, text] of Object.entries(task.solution).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (text === null) out.push(call('ws_delete', { path }));
    else {
      if (path in task.files) out.push(call('ws_read', { path }));
      out.push(call('ws_write', { path, content: text }));
    }
  }
  out.push(call('done', { summary: 'applied the reference solution' }));
  return out;
}

export function referenceModel(task: EvalTask, contextWindow?: number): ScriptedModel {
  return new ScriptedModel(referenceOutputs(task), {
    name: `${REFERENCE_MODEL}-${task.id}`,
    ...(contextWindow !== undefined && { contextWindow }),
  });
}
