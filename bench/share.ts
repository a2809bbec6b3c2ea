/**
 * Share links and replay: the links of the default 7-step run and of the 30-step example in
 * this build's format (version 2) beside the version 1 format they replace, and beside
 * lz-string's `compressToEncodedURIComponent` of the same JSON; and the time to replay and
 * verify a 100-step session beside the same scripted run, from the same start (the template as a
 * git repository), without recording or checking. Runs
 * are recorded in a memory workspace whose `node` runs in the host sandbox, as the bundled
 * sessions are.
 */
import { readFile } from 'node:fs/promises';
import lzString from 'lz-string';
import { runLoop } from '../src/agent/loop.ts';
import { ScriptedModel } from '../src/agent/models/scripted.ts';
import { STARTER_RUN } from '../src/agent/scripts/starter-run.ts';
import { createEngine } from '../src/engine/create.ts';
import { encodeText } from '../src/engine/text.ts';
import { deflateRaw } from '../src/session/compress.ts';
import { toLinkForm } from '../src/session/link-form.ts';
import type { Session } from '../src/session/record.ts';
import { recordRun } from '../src/session/recorder.ts';
import { replaySession } from '../src/session/replay.ts';
import {
  COMFORTABLE_LINK_CHARS,
  linkSession,
  parseSessionFile,
  shareUrl,
  SHARE_PARAM,
  toBase64Url,
} from '../src/session/share-codec.ts';
import { seedTemplate, STARTER_TEMPLATE } from '../src/workspace/templates/index.ts';
import { seedTemplateRepo } from '../src/workspace/git-seed.ts';
import { buildExample, examplePath, hundredStepScript } from '../scripts/make-examples.ts';
import { lessonWorkspace } from '../scripts/make-lessons.ts';
import { timeRuns, timingCell } from './stats.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

/** The page a link points at (the dev server); its length counts in every column alike. */
const BASE_URL = 'http://localhost:5173/';
/** Recording and checking may cost at most this much over the bare run (both run node in the host sandbox for the final tests). */
const TARGETS = { shorterPct: 35, replayOverBare: 1.25 } as const;
const REPLAY_RUNS = 7;

/** The default run on the start screen: the scripted starter task, recorded as the browser records it. */
async function defaultRun(): Promise<Session> {
  const ws = await lessonWorkspace();
  await seedTemplate(ws, STARTER_TEMPLATE);
  const { session } = await recordRun({
    engine: createEngine(ws),
    model: new ScriptedModel(STARTER_RUN.outputs, { name: STARTER_RUN.id }),
    task: STARTER_TEMPLATE.task,
    maxSteps: 40,
  });
  return session;
}

/** The link version 1 wrote: base64url of deflate-raw of the shared form, shell output in full. */
async function v1Link(session: Session): Promise<string> {
  const shared = {
    ...session,
    steps: session.steps.map(({ resultText: _t, call: _c, tally: _y, shellHash: _h, ...kept }) => kept),
  };
  return `${BASE_URL}#${SHARE_PARAM}=${toBase64Url(await deflateRaw(encodeText(JSON.stringify(shared))))}`;
}

async function linkRow(figure: string, session: Session): Promise<BenchRow> {
  const ours = (await shareUrl(session, BASE_URL)).length;
  const before = (await v1Link(session)).length;
  return {
    figure: `${figure} (${session.steps.length} steps)`,
    ours: `${ours} chars`,
    baseline: `${before} chars (format v1)`,
    target: { text: `≤ ${COMFORTABLE_LINK_CHARS}`, met: ours <= COMFORTABLE_LINK_CHARS },
  };
}

/** The bench section; registered in bench/main.ts. */
export function shareSection(): BenchSectionDef {
  return {
    title: 'share links and replay',
    async run() {
      const checked = await parseSessionFile(await readFile(examplePath('thirty-steps'), 'utf8'));
      if (!checked.ok) throw new Error(`examples/thirty-steps.session.json: ${checked.text}`);
      const thirty = checked.session;
      const ours = (await shareUrl(thirty, BASE_URL)).length;
      const lz =
        `${BASE_URL}#${SHARE_PARAM}=${lzString.compressToEncodedURIComponent(JSON.stringify(toLinkForm(await linkSession(thirty))))}`
          .length;
      const shorter = (100 * (lz - ours)) / lz;

      const hundred = hundredStepScript();
      const recorded = await buildExample(hundred);
      const replay = await timeRuns(
        async () => {
          const report = await replaySession(recorded, { workspace: await lessonWorkspace() });
          if (!report.ok) throw new Error(`the 100-step session did not reproduce: ${report.divergence?.why}`);
        },
        { runs: REPLAY_RUNS },
      );
      const plain = await timeRuns(
        async () => {
          // The same start the session was recorded from and a replay rebuilds: the template as a git repository.
          const ws = await lessonWorkspace();
          await seedTemplateRepo(ws, STARTER_TEMPLATE);
          await runLoop({
            engine: createEngine(ws),
            model: new ScriptedModel(hundred.outputs),
            task: thirty.task,
            maxSteps: hundred.outputs.length,
          });
        },
        { runs: REPLAY_RUNS },
      );

      return {
        title: 'share links and replay',
        unit: 'link characters, this format vs format v1 (and vs lz-string); replay+verify vs the bare scripted run, ms median / p90',
        rows: [
          await linkRow('link to the default run', await defaultRun()),
          await linkRow('link to the 30-step example', thirty),
          {
            figure: 'link shorter than lz-string by',
            ours: `${shorter.toFixed(1)}%`,
            baseline: `${lz} chars (lz-string)`,
            target: { text: `≥ ${TARGETS.shorterPct}%`, met: shorter >= TARGETS.shorterPct },
          },
          {
            figure: `replay + verify a ${recorded.steps.length}-step session (memory, node in the host sandbox)`,
            ours: timingCell(replay),
            baseline: `${timingCell(plain)} (run, no checks)`,
            target: {
              text: `≤ ${TARGETS.replayOverBare} × the bare run`,
              met: replay.median <= TARGETS.replayOverBare * plain.median,
            },
          },
        ],
      };
    },
  };
}
