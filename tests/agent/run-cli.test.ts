/**
 * `slm run` through the real CLI: a scripted run over a project directory writes the session
 * file and exits 0 on done; a run that ends otherwise exits 1; malformed command lines exit 2
 * with a message naming the fix.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, tempRoot } from '../cli/cli-process.ts';
import { HAS_NODE_LLAMA_CPP } from '../support/node-llama-cpp.ts';
import type { Session } from '../../src/session/record.ts';

let root: string;
let scripts: string;
const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';

beforeAll(async () => {
  root = await tempRoot();
  scripts = await tempRoot();
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/math.js'), MATH);
  await writeFile(
    join(scripts, 'fix.json'),
    JSON.stringify([
      '{"tool": "ws_read", "args": {"path": "src/math.js"}}',
      '{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "  return a - b;", "new_str": "  return a + b;"}}',
      '{"tool": "done", "args": {"summary": "add adds"}}',
    ]),
  );
  await writeFile(join(scripts, 'short.json'), JSON.stringify(['{"tool": "ws_list", "args": {"path": "."}}']));
  await writeFile(join(scripts, 'bad.json'), '{"not": "an array"}');
});
afterAll(cleanup);

describe('slm run', () => {
  it('runs a scripted session to done, prints why it ended, writes the session file, exits 0', async () => {
    const out = join(scripts, 'session.json');
    const evolve = join(scripts, 'bandit.json');
    const r = await runCli([
      'run',
      '--model',
      `scripted:${join(scripts, 'fix.json')}`,
      '--task',
      'Make add add.',
      '--root',
      root,
      '--out',
      out,
      '--evolve',
      evolve,
    ]);
    expect(r.stdout).toBe(
      "finished with done: the final test run gave no pass/fail count — the model's summary: add adds (3 steps)\n",
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^step 1 ws_read ok\nstep 2 ws_edit ok\nstep 3 done failed — Run finished\. Summary recorded: add adds \[hint, final-tests\]\n$/,
    );
    expect(await readFile(join(root, 'src/math.js'), 'utf8')).toBe(MATH.replace('a - b', 'a + b'));

    const session = JSON.parse(await readFile(out, 'utf8')) as Session;
    expect(session).toMatchObject({
      v: 1,
      task: 'Make add add.',
      model: {
        id: `scripted:${join(scripts, 'fix.json')}`,
        kind: 'scripted',
        params: { family: 'scripted', contextWindow: 4096 },
        seed: 0,
        temperature: 0,
      },
      settings: { engine: { context_window_tokens: 4096 }, agent: { maxSteps: 25, contextTokens: 4096 } },
      workspace: { files: { 'src/math.js': MATH } },
    });
    expect(session.steps.map((s) => s.raw)).toHaveLength(3);
    expect(session.steps[1]!.resultText).toBe('edited src/math.js (1 replacement(s))');
    const table = JSON.parse(await readFile(evolve, 'utf8')) as {
      arms: Record<string, Record<string, { pulls: number }>>;
    };
    expect(table.arms['scripted|javascript']?.search_replace?.pulls).toBe(1);
  });

  it('exits 1 when the run ends without done (the script runs out)', async () => {
    const r = await runCli([
      'run',
      '--model',
      `scripted:${join(scripts, 'short.json')}`,
      '--task',
      'Look around.',
      '--root',
      root,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^the model failed \(exhausted\): the scripted model has no output left/);
  });

  it('exits 1 with the reason when the endpoint is not there', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const r = await runCli([
      'run',
      '--model',
      `openai:http://127.0.0.1:${port}#qwen2.5-coder:1.5b`,
      '--task',
      'x',
      '--root',
      root,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/connection refused\. Start the server/);
  });

  it('--tools-api sends the tools and runs the tool_calls the endpoint returns', async () => {
    const replies = [
      { name: 'ws_list', arguments: '{"path": "."}' },
      { name: 'done', arguments: '{"summary": "looked"}' },
    ];
    const bodies: { tools?: unknown[]; response_format?: unknown }[] = [];
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        bodies.push(JSON.parse(raw));
        const call = replies.shift()!;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            choices: [
              {
                message: { content: null, tool_calls: [{ type: 'function', function: call }] },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = await runCli([
        'run',
        '--model',
        `openai:http://127.0.0.1:${port}/v1#m`,
        '--tools-api',
        '--task',
        'Look around.',
        '--root',
        root,
        '--unsandboxed-commands',
      ]);
      expect(r.stdout).toMatch(/^finished with done/);
      expect(r.code).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
    expect(bodies).toHaveLength(2);
    expect(bodies[0]!.response_format).toBeUndefined();
    expect(bodies[0]!.tools?.length).toBeGreaterThan(1);
  });

  it.each([
    { args: ['--task', 't', '--root', '.'], says: /--model SPEC is required/ },
    {
      args: ['--model', 'gpt4', '--task', 't', '--root', '.'],
      says: /is not a model spec: use openai:BASE_URL#MODEL, gguf:FILE or scripted:FILE/,
    },
    {
      args: ['--model', 'gguf:', '--task', 't', '--root', '.'],
      says: /--model gguf: names no file: write gguf:FILE\.gguf/,
    },
    {
      args: ['--model', 'gguf:/nonexistent-dir/m.gguf', '--task', 't', '--root', '.'],
      // Without node-llama-cpp (an optional dependency) the run says how to install it instead.
      says: HAS_NODE_LLAMA_CPP
        ? /\/nonexistent-dir\/m\.gguf cannot be loaded: there is no such file; give the path of a \.gguf file\./
        : /node-llama-cpp, an optional dependency\) is not installed here\. Install it in the checkout with `npm ci`/,
    },
    {
      args: ['--model', 'openai:http://127.0.0.1:11434/v1', '--task', 't', '--root', '.'],
      says: /names no model: write openai:BASE_URL#MODEL/,
    },
    {
      args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.', '--max-steps', '0'],
      says: /--max-steps must be a whole number ≥ 1, not "0"/,
    },
    { args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.'], says: /must hold a JSON array of strings/ },
    {
      args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.', '--edit-format', 'xml'],
      says: /--edit-format must be one of search_replace, unified_diff, whole_file/,
    },
    {
      args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.', '--tools-api'],
      says: /--tools-api needs an endpoint: use it with --model openai:BASE_URL#MODEL/,
    },
    {
      args: ['--model', 'openai:http://127.0.0.1:1/v1#m', '--task', 't', '--root', '.', '--tools-api', '--free-text'],
      says: /give --tools-api or --free-text, not both/,
    },
    { args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.', '--bogus'], says: /Unknown option '--bogus'/ },
    {
      args: ['--model', 'scripted:BAD', '--task', 't', '--root', '.', '--out', '/nonexistent-dir/s.json'],
      says: /--out \/nonexistent-dir\/s\.json: the directory \/nonexistent-dir does not exist/,
    },
  ])('usage error: $says', async (row) => {
    const args = row.args.map((a) => a.replace('BAD', join(scripts, 'bad.json')));
    const r = await runCli(['run', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(row.says);
    expect(r.stderr).toContain('usage:\n  slm run --model SPEC');
  });
});
