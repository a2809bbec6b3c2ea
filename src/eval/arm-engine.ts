/** The engine of an eval arm: the arm's settings, its tools answered by the naive harness for `off`. */
import type { Engine } from '../engine/engine.ts';
import type { Workspace } from '../engine/workspace.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import { harnessEngine } from '../session/naive-engine.ts';
import type { Arm } from './arms.ts';

/** The engine of an arm over `ws`: the arm's settings over `base`; its session records the harness (see `engineHarness`). */
export function armEngine(
  ws: Workspace,
  arm: Pick<Arm, 'settings' | 'naive'>,
  base: { readonly context_window_tokens: number },
  outside?: OutsideAccess,
): Engine {
  return harnessEngine(ws, { ...base, ...arm.settings }, arm.naive ? 'naive' : undefined, outside);
}
