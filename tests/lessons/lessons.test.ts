/**
 * The lessons: the path is short and complete (every mechanism of the catalogue is shown), each
 * session file is what scripts/make-lessons.ts records today, each replays ✓ through
 * replaySession, and at every step the detectors find exactly the mechanisms the lesson claims —
 * on the live step with its notes and on the file's text alone. So an engine change that stops
 * a mechanism firing (or makes it fire somewhere else) fails here, naming the lesson and step.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { lessonFileText, lessonPath, lessonScript, lessonWorkspace, REGENERATE_LESSONS, runLesson, type LessonRun } from '../../scripts/make-lessons.ts';
import { LESSON_SCRIPTS } from '../../scripts/lesson-scripts.ts';
import { lessonClaims, LESSONS, type Lesson } from '../../src/session/lessons.ts';
import { detectMechanisms, liveEvidence, mechanismById, MECHANISMS, recordedEvidence, type MechanismId } from '../../src/session/mechanisms.ts';
import type { Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { parseSessionFile } from '../../src/session/share-codec.ts';

const runs = new Map<string, LessonRun>();

beforeAll(async () => {
  useNodeWasm();
  for (const lesson of LESSONS) runs.set(lesson.id, await runLesson(lessonScript(lesson.id)));
}, 120_000);

async function loadLesson(id: string): Promise<Session> {
  const text = await readFile(lessonPath(id), 'utf8').catch(() => null);
  if (text === null) expect.fail(`lessons/${id}.session.json is missing; write it with \`${REGENERATE_LESSONS}\``);
  const checked = await parseSessionFile(text);
  if (!checked.ok) expect.fail(`lessons/${id}.session.json does not read as a session: ${checked.text}`);
  return checked.session;
}

/** The claims of one step, sorted as the catalogue orders mechanisms. */
function claimsAt(lesson: Lesson, step: number): MechanismId[] {
  const order = MECHANISMS.map((m) => m.id);
  return [...new Set(lesson.steps[step - 1]?.shows ?? [])].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

describe('the lesson path', () => {
  it('is 6–11 lessons in order, each of 3–8 steps, each with its script', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(6);
    expect(LESSONS.length).toBeLessThanOrEqual(11);
    expect(LESSONS.map((l) => l.order)).toEqual(LESSONS.map((_, i) => i + 1));
    expect(new Set(LESSONS.map((l) => l.id)).size).toBe(LESSONS.length);
    expect(LESSON_SCRIPTS.map((s) => s.id).sort()).toEqual(LESSONS.map((l) => l.id).sort());
    for (const l of LESSONS) {
      expect(l.steps.length, l.id).toBeGreaterThanOrEqual(3);
      expect(l.steps.length, l.id).toBeLessThanOrEqual(8);
      expect(l.intro.length, l.id).toBeGreaterThan(100);
    }
  });

  it('shows every mechanism of the catalogue somewhere', () => {
    const claimed = new Set(LESSONS.flatMap((l) => lessonClaims(l).map((c) => c.mechanism)));
    expect(MECHANISMS.map((m) => m.id).filter((id) => !claimed.has(id))).toEqual([]);
  });
});

describe.each(LESSONS.map((l) => [l.id, l] as const))('lesson %s', (id, lesson) => {
  it('is up to date with scripts/make-lessons.ts and this engine', async () => {
    const onDisk = await readFile(lessonPath(id), 'utf8').catch(() => '');
    if (onDisk !== lessonFileText(runs.get(id)!.session)) {
      expect.fail(`lessons/${id}.session.json is out of date: the engine, the script or the captions changed since it was written. Regenerate with \`${REGENERATE_LESSONS}\`.`);
    }
  });

  it('has one caption per recorded step', async () => {
    expect((await loadLesson(id)).steps).toHaveLength(lesson.steps.length);
  });

  it('replays: every step ✓', async () => {
    const report = await replaySession(await loadLesson(id), { workspace: await lessonWorkspace() });
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(report.steps).toHaveLength(lesson.steps.length);
  });

  it('shows at each live step exactly the mechanisms it claims', () => {
    const steps = runs.get(id)!.steps;
    for (const step of steps) expect(detectMechanisms(liveEvidence(step)), `${id} step ${step.index}`).toEqual(claimsAt(lesson, step.index));
  });

  it('shows the same in the session file, from the text the model saw', async () => {
    const session = await loadLesson(id);
    session.steps.forEach((step, i) => expect(detectMechanisms(recordedEvidence(step)), `${id} step ${i + 1}`).toEqual(claimsAt(lesson, i + 1)));
  });

  it('needs the engine\'s own note on a live step: the text alone does not count there', () => {
    for (const { mechanism, step } of lessonClaims(lesson)) {
      // The exact rung is the absence of a rung note, so removing notes cannot hide it.
      if (mechanism === 'rung-exact') continue;
      const live = liveEvidence(runs.get(id)!.steps[step - 1]!);
      expect(mechanismById(mechanism).detect({ ...live, notes: [] }), `${id} step ${step} ${mechanism}`).toBe(false);
    }
  });
});

describe('a lesson replayed where no command can run', () => {
  it('diverges at its first test run (as slm replay does where bubblewrap cannot run), and says why', async () => {
    const report = await replaySession(await loadLesson('loops-and-stalls'));
    expect(report.divergence).toMatchObject({ index: 1, kind: 'shell' });
    expect(report.divergence?.why).toContain("this replay's workspace runs no commands");
  });
});

describe('the Python lesson', () => {
  it("shows the broken edit reverted by CPython's own compile(), not by the hand rules", async () => {
    const steps = (await loadLesson('python-checked')).steps;
    expect(steps[0]!.resultText).toMatch(/^python3 -m unittest discover -s tests: 3 passed, 1 failed/);
    expect(steps[2]!.resultText).toMatch(
      /^EDIT REVERTED — grades\.py parsed correctly before your change and does NOT parse after it \(CPython compile\(\)\): 6:18 SyntaxError: expected ':'\n/,
    );
  });
});
