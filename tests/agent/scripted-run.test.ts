/**
 * A whole scripted run of a small task with the real coding tools over a MemoryWorkspace:
 * ws_read → ws_edit whose old_str drifted (indentation) → done, recording every step; and the
 * system prompt's worked example and worked repair, executed against the real engine.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import { decodeText, encodeText } from '../../src/engine/text.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { runLoop } from '../../src/agent/loop.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { EditFormatBandit } from '../../src/agent/evolve.ts';
import { parseCall } from '../../src/agent/parse.ts';
import type { Step } from '../../src/agent/step.ts';

const MATH = 'export function add(a, b) {\n    if (a == null) {\n        return b;\n    }\n    return a - b;\n}\n';

async function workspaceWith(files: Record<string, string>): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  for (const [path, text] of Object.entries(files)) await ws.writeFile(path, encodeText(text));
  return ws;
}

describe('a scripted run of a small task', () => {
  it('ws_read → ws_edit with a drifted old_str → done, every step recorded', async () => {
    const ws = await workspaceWith({ 'src/math.js': MATH });
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS, settings: { context_window_tokens: 4096 } });
    const outputs = [
      '{"thought": "Look at add first.", "tool": "ws_read", "args": {"path": "src/math.js"}}',
      // Re-typed two spaces shallower than the file: the ladder's indentation rung.
      '```json\n{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "  if (a == null) {\\n      return b;\\n  }\\n  return a - b;", "new_str": "  if (a == null) {\\n      return b;\\n  }\\n  return a + b;"}}\n```',
      '{"tool": "done", "args": {"summary": "add now adds"}}',
    ];
    const bandit = new EditFormatBandit(null, 1);
    const emitted: Step[] = [];
    const r = await runLoop({
      engine,
      model: new ScriptedModel(outputs),
      task: 'Fix add in src/math.js so it adds.',
      evolve: bandit,
      language: 'javascript',
      onStep: (s) => emitted.push(s),
    });

    // ws_test is registered, but this workspace has no test command: done records that no tally could be read.
    expect(r.stop).toEqual({
      kind: 'done',
      summary: 'add now adds',
      tally: null,
      testTool: true,
      verdict: 'unmeasured',
    });
    expect(emitted).toEqual(r.steps);
    expect(r.steps.map((s) => s.call?.tool)).toEqual(['ws_read', 'ws_edit', 'done']);
    expect(r.steps.map((s) => s.raw)).toEqual(outputs);

    const [read, edit, done] = r.steps as [Step, Step, Step];
    expect(read.call?.thought).toBe('Look at add first.');
    expect(read.observation).toMatch(/^\[src\/math\.js#[0-9a-f]{4}: lines 1-6 of 6\]/);
    expect(read.observation).toContain('     5|    return a - b;');

    expect(edit.result?.ok).toBe(true);
    expect(edit.result?.notes.find((n) => n.kind === 'rung')?.detail).toBe('indent');
    expect(edit.observation).toMatch(/^edited src\/math\.js \(1 replacement\(s\)\)/);
    expect(edit.observation).toContain(
      '[matched after normalizing indentation — your old_str was indented differently]',
    );
    expect(edit.result?.changes).toEqual([
      { path: 'src/math.js', before: MATH, after: MATH.replace('a - b', 'a + b') },
    ]);
    expect(edit.notes.map((n) => n.kind)).toEqual(['repair']);
    // The file's own indentation was re-applied to new_str.
    expect(decodeText(await ws.readFile('src/math.js'))).toBe(MATH.replace('a - b', 'a + b'));

    expect(done.notes.map((n) => n.kind)).toEqual(['final-tests']);
    // Each step was sent the history so far: system, task, then one call/observation pair per earlier step.
    expect(r.steps.map((s) => s.messages.length)).toEqual([2, 4, 6]);
    expect(done.messages[3]!.content).toBe(read.observation);
    for (const s of r.steps) {
      expect(s.tokens.estimated).toBe(true);
      expect(s.budget.window).toBe(4096);
      // A scripted model reports no usage: the budget is the conservative estimate, said as such.
      expect(s.budget.counting).toBe('estimated');
      expect(s.budget.system + s.budget.tools).toBeLessThan(2000);
    }
    // The bandit learned from the edit: search_replace in javascript, landed on the indentation rung.
    expect(bandit.rows().find((row) => row.format === 'search_replace')).toMatchObject({
      family: 'scripted',
      language: 'javascript',
      pulls: 1,
      rungs: { indent: 1 },
    });
  });
});

describe('the system prompt teaches what the engine does', () => {
  it('the worked repair is refused as shown, and its fix applies', async () => {
    const ws = await workspaceWith({ 'src/math.js': 'export function add(a, b) {\n  return a - b;\n}\n' });
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS });
    const sent = await promptOf(engine);
    // The worked example is the one call the prompt shows; the worked repair is described in words.
    const calls = sent.split('\n').filter((l) => l.startsWith('{"tool": "ws_edit"'));
    expect(calls).toHaveLength(1);
    const example = parseCall(calls[0]!);
    if (!example.ok) throw new Error(`prompt example does not parse: ${calls[0]}`);
    expect(example.call.args).toEqual({ path: 'src/math.js', old_str: '  return a - b;', new_str: '  return a + b;' });
    const wrong = /^Wrong: old_str ("(?:[^"\\]|\\.)*")/m.exec(sent)?.[1];
    const shown = /^Result: (.*?) …$/m.exec(sent)?.[1];
    expect(wrong && shown).toBeTruthy();
    await engine.call('ws_read', { path: 'src/math.js' });
    const refused = await engine.call('ws_edit', {
      path: 'src/math.js',
      old_str: JSON.parse(wrong!) as string,
      new_str: 'export function add(a, b) {\n  return a + b;',
    });
    expect(refused.ok).toBe(false);
    expect(refused.text.startsWith(shown!)).toBe(true);
    const applied = await engine.call(example.call.tool, example.call.args);
    expect(applied.ok).toBe(true);
    expect(decodeText(await ws.readFile('src/math.js'))).toBe('export function add(a, b) {\n  return a + b;\n}\n');
  });
});

/** The system message a run sends on its first step (the run then ends: the script is empty). */
async function promptOf(engine: Engine): Promise<string> {
  const model = new ScriptedModel([]);
  await runLoop({ engine, model, task: 't' });
  return model.received[0]![0]!.content;
}
