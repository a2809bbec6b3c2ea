/**
 * One fresh process for the long-command section (bench/shell-long.ts): loads the shell's parser
 * and decides (or parses) `ls`, so loading is not what is timed, then decides (or only parses)
 * the section's first pipeline once and prints one JSON line with how long that took.
 * `node --import tsx bench/shell-long-child.ts decide|parse`.
 */
import { decideShell } from '../src/engine/shell/index.ts';
import { parserFor } from '../src/engine/treesitter/loader.ts';
import { useNodeWasm } from '../src/platform/node-wasm.ts';
import { commandOf, LONG_SHAPES, partsOf } from './shell-long.ts';

export interface FirstDecision {
  readonly ms: number;
  /** False when the decision was not the one the section expects. */
  readonly ok: boolean;
}

const what = process.argv[2];
if (what !== 'decide' && what !== 'parse')
  throw new Error(`shell-long-child: say decide or parse (got ${String(what)})`);
useNodeWasm();
const parser = await parserFor('bash');
const shape = LONG_SHAPES[0]!;
const cmd = commandOf(shape);
let ok = true;
let ms: number;
if (what === 'decide') {
  decideShell(parser, 'ls');
  const t0 = performance.now();
  const decision = decideShell(parser, cmd);
  ms = performance.now() - t0;
  ok = shape.expect(decision, partsOf(shape));
} else {
  parser.parse('ls')?.delete();
  const t0 = performance.now();
  parser.parse(cmd)?.delete();
  ms = performance.now() - t0;
}
parser.delete();
process.stdout.write(`${JSON.stringify({ ms, ok } satisfies FirstDecision)}\n`);
