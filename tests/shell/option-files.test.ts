/**
 * A bare option value that names a workspace file (`npx vitest --runner x` with a file `x`) is
 * judged as the file it is: the command does not run and says to write `./x`, which asks a person.
 * Bare values of options the tool knows, and bare values naming no file, run as before. Memory and
 * Node backends alike.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BACKENDS, cleanupBackends, shellEngine, shellWorkspace } from '../support/shell-backends.ts';

afterAll(cleanupBackends);

const FILES = {
  x: 'module.exports = {};\n',
  adds: 'not a test\n',
  'package.json': '{"name":"fixture","type":"module"}\n',
};

// Each row: command → ran (or not), a pattern the result text must match.
const rows: readonly (readonly [command: string, ran: boolean, text: RegExp])[] = [
  [
    'npx vitest --runner x',
    false,
    /"--runner x" names the workspace file "x", which the command would load and run as code .* write it as "\.\/x"/,
  ],
  ['npx vitest run --runner=x', false, /"--runner=x" names the workspace file "x".* write it as "--runner=\.\/x"/],
  ['go vet -vettool x ./...', false, /names the workspace file "x"/],
  ['npm test -- --diff x', false, /names the workspace file "x"/],
  ['node --test --test-name-pattern adds', true, /exit code 0|succeeded/],
  ['cat -n adds', true, /not a test/],
];

describe.each(BACKENDS)('bare option values naming workspace files, on the %s backend', (backend) => {
  it.each(rows)('%j', async (command, ran, text) => {
    const engine = shellEngine(await shellWorkspace(backend, FILES));
    const r = await engine.call('ws_shell', { command });
    expect(r.text).toMatch(text);
    const refusal = r.notes.find((n) => n.kind === 'refusal' && n.detail === 'option-file');
    expect(refusal !== undefined).toBe(!ran);
  });
});
