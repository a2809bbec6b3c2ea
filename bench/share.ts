/**
 * Share links and replay: the 30-step example's link (deflate-raw + base64url) beside
 * lz-string's `compressToEncodedURIComponent` of the same JSON, and the time to replay and
 * verify a 100-step session beside the same scripted run without recording or checking.
 */
import { readFile } from 'node:fs/promises';
import lzString from 'lz-string';
import { runLoop } from '../src/agent/loop.ts';
import { ScriptedModel } from '../src/agent/models/scripted.ts';
import { createEngine } from '../src/engine/create.ts';
import { sharedForm } from '../src/session/record.ts';
import { replaySession } from '../src/session/replay.ts';
import { parseSessionFile, shareUrl, SHARE_PARAM } from '../src/session/share-codec.ts';
import { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import { seedTemplate, STARTER_TEMPLATE } from '../src/workspace/templates/index.ts';
import { buildExample, examplePath, hundredStepScript } from '../scripts/make-examples.ts';
import { timeRuns, timingCell } from './stats.ts';
import type { BenchSectionDef } from './table.ts';

/** The page a link points at (the dev server); its length counts in both columns alike. */
const BASE_URL = 'http://localhost:5173/';
const TARGETS = { linkChars: 4000, shorterPct: 35, replayMs: 2000 } as const;
const REPLAY_RUNS = 7;

/** The bench section; registered in bench/main.ts. */
export function shareSection(): BenchSectionDef {
  return {
    title: 'share links and replay',
    async run() {
      const checked = await parseSessionFile(await readFile(examplePath('thirty-steps'), 'utf8'));
      if (!checked.ok) throw new Error(`examples/thirty-steps.session.json: ${checked.text}`);
      const session = checked.session;
      const ours = (await shareUrl(session, BASE_URL)).length;
      const lz = `${BASE_URL}#${SHARE_PARAM}=${lzString.compressToEncodedURIComponent(JSON.stringify(sharedForm(session)))}`.length;
      const shorter = (100 * (lz - ours)) / lz;

      const hundred = hundredStepScript();
      const recorded = await buildExample(hundred);
      const replay = await timeRuns(
        async () => {
          const report = await replaySession(recorded);
          if (!report.ok) throw new Error(`the 100-step session did not reproduce: ${report.divergence?.why}`);
        },
        { runs: REPLAY_RUNS },
      );
      const plain = await timeRuns(
        async () => {
          const ws = new MemoryWorkspace();
          await seedTemplate(ws, STARTER_TEMPLATE);
          await runLoop({ engine: createEngine(ws), model: new ScriptedModel(hundred.outputs), task: session.task, maxSteps: hundred.outputs.length });
        },
        { runs: REPLAY_RUNS },
      );

      return {
        title: 'share links and replay',
        unit: 'ours vs lz-string characters; replay+verify vs the bare scripted run, ms median / p90',
        rows: [
          {
            figure: `link to the 30-step example (${session.steps.length} steps)`,
            ours: `${ours} chars`,
            baseline: `${lz} chars (lz-string)`,
            target: { text: `≤ ${TARGETS.linkChars}`, met: ours <= TARGETS.linkChars },
          },
          { figure: 'link shorter than lz-string by', ours: `${shorter.toFixed(1)}%`, baseline: '', target: { text: `≥ ${TARGETS.shorterPct}%`, met: shorter >= TARGETS.shorterPct } },
          {
            figure: `replay + verify a ${recorded.steps.length}-step session (memory)`,
            ours: timingCell(replay),
            baseline: `${timingCell(plain)} (run, no checks)`,
            target: { text: `< ${TARGETS.replayMs} ms`, met: replay.median < TARGETS.replayMs },
          },
        ],
      };
    },
  };
}
