/**
 * llama.cpp in the tab counts real tokens, the same as llama.cpp in Node: the generated test GGUF
 * with Qwen's real vocabulary, merges and ChatML template (made once into a cache directory,
 * never committed) is picked from disk and runs one step through wllama in headless Chromium.
 * The step-1 budget says `counted` and equals what llama.cpp in the tab reported reading; its
 * parts are the real tokens node-llama-cpp counts over the same file in the step-1 prompt rebuilt
 * here from the saved session with the loop's own builders (the record keeps no messages). The
 * engines differ by one token once per prompt: node-llama-cpp's ChatML wrapper starts with a
 * begin-of-text token the file does not ask for, and llama.cpp's own template does not. Steps 2
 * and 3, with the history, are budgeted at what llama.cpp in the tab read too.
 */
import { toolSpecs } from '../src/agent/call-schema.ts';
import { buildContext } from '../src/agent/context.ts';
import type { GgufNodeModel } from '../src/agent/models/gguf-node.ts';
import { buildPrompt } from '../src/agent/prompt.ts';
import { countPrompt } from '../src/agent/tokens.ts';
import type { PromptParts } from '../src/agent/context.ts';
import type { ChatMessage } from '../src/agent/model.ts';
import { createEngine } from '../src/engine/create.ts';
import type { EngineSettings } from '../src/engine/settings.ts';
import { skillCards } from '../src/engine/skills/index.ts';
import type { EditFormat } from '../src/agent/evolve.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { testModelFile } from '../tests/support/gguf/test-model-file.ts';
import { needsNodeLlamaCpp } from '../tests/support/node-llama-cpp.ts';
import { expect, screenshot, test } from './console.ts';
import { latestSavedSession } from './saved-session.ts';

/** What the step-1 prompt is rebuilt from. */
interface SavedSession {
  readonly task: string;
  readonly settings: {
    readonly engine: Partial<EngineSettings>;
    readonly agent: { readonly contextTokens: number; readonly outputTokens: number; readonly editFormat?: EditFormat };
  };
}

/** The step-1 prompt the loop sends for `s`: its parts and messages, built as loop.ts builds them. */
function stepOnePrompt(s: SavedSession): { parts: PromptParts; messages: ChatMessage[] } {
  const engine = createEngine(new MemoryWorkspace(), s.settings.engine);
  const parts = buildPrompt({
    tools: toolSpecs(engine.tools.values()),
    task: s.task,
    ...(s.settings.agent.editFormat && { editFormat: s.settings.agent.editFormat }),
    ...(engine.tools.has('ws_skill') && { skills: skillCards() }),
  });
  return {
    parts,
    messages: buildContext(parts, [], s.settings.agent.contextTokens, s.settings.agent.outputTokens).messages,
  };
}

/** The budget bar's parts, read off its accessible name ("system prompt 600, tool cards 300, … tokens of 4096"). */
function barParts(label: string): Record<string, number> {
  const parts = label.slice(0, label.lastIndexOf(' tokens of '));
  return Object.fromEntries(parts.split(', ').map((p) => [p.replace(/ \d+$/, ''), Number(/\d+$/.exec(p)?.[0])]));
}

/** Steps run: step 1 is compared with Node; the later ones, with history, with what the tab's llama.cpp read. */
const STEPS = 3;

const run = needsNodeLlamaCpp('llama.cpp in the tab against llama.cpp in Node');

test('llama.cpp in the tab budgets in real Qwen tokens: "counted", equal to what it read at every step, step 1\'s texts counted as llama.cpp in Node counts them', async ({
  page,
  problems: _problems,
}) => {
  test.skip(!run, 'node-llama-cpp (an optional dependency) is not installed: there is no Node count to compare with');
  // Generating the model (once, ~15 s), loading 25 MB, a ~1,100-token prefill and one constrained reply over a 151k vocabulary.
  test.setTimeout(480_000);
  const file = await testModelFile({ vocabulary: 'qwen' });
  await page.goto('/');
  await page.getByRole('radio', { name: /llama\.cpp in this tab/ }).check();
  await page.getByLabel('Max steps').fill(String(STEPS));
  await page.getByLabel('A .gguf file on this computer').check();
  await page.getByTestId('gguf-file').setInputFiles(file);
  await expect(page.getByTestId('gguf-header')).toContainText('trained on');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toBeVisible({ timeout: 420_000 });

  await page.getByRole('listbox', { name: 'Steps' }).getByRole('option').filter({ hasText: '#1' }).click();
  const counting = page.getByTestId('budget-counting');
  await expect(counting).toHaveText('counted');
  const summary = await counting.locator('xpath=..').innerText();
  const used = Number(/(\d+) of \d+ tokens used by the prompt/.exec(summary)?.[1]);
  const reported = Number(/The model reported (\d+) prompt/.exec(summary)?.[1]);
  const tab = barParts((await page.getByTestId('budget-bar').getAttribute('aria-label')) ?? '');
  await page.getByTestId('budget-bar').scrollIntoViewIfNeeded();
  await screenshot(page, '41b-llamacpp-budget-counted');
  // Every later step too: its budget, history included, is what llama.cpp in the tab read.
  const later: { step: number; budget: number; read: number }[] = [];
  for (let i = 2; i <= STEPS; i++) {
    await page
      .getByRole('listbox', { name: 'Steps' })
      .getByRole('option')
      .filter({ hasText: `#${i}` })
      .click();
    await expect(counting).toHaveText('counted');
    const text = await counting.locator('xpath=..').innerText();
    const budget = Number(/(\d+) of \d+ tokens used by the prompt/.exec(text)?.[1]);
    const read = Number(/The model reported (\d+) prompt/.exec(text)?.[1]);
    later.push({ step: i, budget, read });
  }
  console.log(`later steps: ${JSON.stringify(later)}`);
  expect(later.map((l) => l.budget)).toEqual(later.map((l) => l.read));
  expect(later.every((l) => l.budget > used)).toBe(true);

  const { loadGgufNode } = await import('../src/agent/models/gguf-node.ts');
  let node: GgufNodeModel | undefined;
  try {
    node = await loadGgufNode({ file, contextTokens: 4096, threads: 1 });
    const n = node.tokenizer;
    const { parts, messages } = stepOnePrompt(await latestSavedSession<SavedSession>(page));
    const inNode = countPrompt(n, messages);
    const description = `budget in the tab ${used} (${JSON.stringify(tab)}), llama.cpp in the tab read ${reported}, llama.cpp in Node ${inNode} (${n.perMessage} a message, ${n.perPrompt} once)`;
    test.info().annotations.push({ type: 'step-1 prompt tokens', description });
    console.log(`step-1 prompt tokens: ${description}`);
    expect(used).toBeGreaterThan(500);
    // The tab's budget is exactly what llama.cpp in the tab read.
    expect(used).toBe(reported);
    // Its texts are the same real tokens llama.cpp in Node counts: the tool cards alone, and the
    // task with the template's tokens around one message.
    expect(tab['tool cards']).toBe(n.text(parts.tools));
    expect(tab['task']).toBe(n.text(parts.task) + n.perMessage);
    // The system message too; what is left is the template's once-per-prompt part: ChatML's reply
    // header `<|im_start|>assistant\n` (3) in the tab, and in Node the same plus the begin-of-text
    // token node-llama-cpp's ChatML wrapper puts first although the file asks for none.
    const systemText = n.text(messages[0]!.content) + n.perMessage - n.text(parts.tools);
    expect({ tab: tab['system prompt']! - systemText, node: n.perPrompt }).toEqual({ tab: 3, node: 4 });
    expect(used).toBe(inNode - 1);
  } finally {
    await node?.dispose();
  }
});
