/**
 * The script table's guarantee, as a property: whatever a package.json script says, either it
 * is refused with a reason, or exactly one command runs — one the policy allowed, whose first
 * word is a runner in the table, whose arguments are the words the policy read (patterns
 * expanded against the workspace, nothing else). Scripts are drawn from runner names, plain
 * words, patterns and shell syntax that must never run (chains, pipes, substitutions,
 * redirections).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { InMemoryFs } from 'just-bash';
import { MemoryWorkspace } from './memory-workspace.ts';
import { planScript, SCRIPT_COMMANDS } from './script-commands.ts';
import { checkCommand } from '../../engine/tools/run-command.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';

useNodeWasm();

const FIRST = ['jest', 'vitest', 'mocha', 'node', 'npx jest', 'pytest', 'eslint', 'echo', 'cat', 'NODE_ENV=test jest'];
const WORDS = ['--ci', 'run', '-t', 'adds', './*', 'test/*.spec.js', "'a b'", '--test', 'x.js', '--shard=1/2'];
const SYNTAX = ['&&', '||', ';', '|', '$(cat a)', '`id`', '> out.txt', '2>/dev/null', '< in.txt', '&', '\n'];

const script = fc
  .tuple(
    fc.constantFrom(...FIRST),
    fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...SYNTAX), fc.constantFrom(...FIRST)), {
      maxLength: 5,
    }),
  )
  .map(([first, rest]) => [first, ...rest].join(' '));

const RUNS = new Set(Object.entries(SCRIPT_COMMANDS).flatMap(([name, c]) => ('runs' in c ? [name] : [])));

describe('planScript', () => {
  it('runs one allowed runner command with the words the policy read, or refuses with why', async () => {
    const ws = new MemoryWorkspace(new InMemoryFs(), '/ws');
    for (const f of ['test/a.spec.js', 'test/b.spec.js', 'x.js', 'package.json'])
      await ws.writeFile(f, new TextEncoder().encode(''));
    await fc.assert(
      fc.asyncProperty(script, async (text) => {
        const planned = await planScript(ws, '', text);
        if ('refused' in planned) {
          expect(planned.refused.length).toBeGreaterThan(10);
          return;
        }
        const decision = await checkCommand(text);
        expect(decision.decision).toBe('allow');
        expect(decision.plan?.stages).toHaveLength(1);
        const words = decision.plan!.stages[0]!.args;
        const argv = planned.stage.argv;
        expect(RUNS.has(argv[0]!)).toBe(true);
        // npx NAME runs NAME; every other word is the policy's own, a pattern only as expanded here.
        const policyWords = words[0]!.text === 'npx' ? words.slice(1) : words;
        const literal = policyWords.filter((w) => w.glob === undefined).map((w) => w.text);
        expect(argv.filter((a) => literal.includes(a))).toEqual(literal);
        // A pattern stands for at least one word: its matches, or itself when nothing matches.
        expect(argv.length).toBeGreaterThanOrEqual(policyWords.length);
      }),
      { numRuns: 150 },
    );
  });
});
