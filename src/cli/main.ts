/**
 * `slm`: the command-line face of the engine (`npx slm COMMAND …` in a checkout, or
 * `npm run -s slm -- COMMAND …`). This file wires the process to runSlm (slm.ts).
 */
import { useNodeWasm } from '../platform/node-wasm.ts';
import { EXIT } from './command.ts';
import { runSlm } from './slm.ts';

// A reader that stops reading (`slm parse < big.jsonl | head -1`) closes the pipe: that is its
// choice, not a failure, so the command ends there, quietly, with exit 0.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(EXIT.ok);
  throw e;
});

useNodeWasm();
process.exitCode = await runSlm(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
