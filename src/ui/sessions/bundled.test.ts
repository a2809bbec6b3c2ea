/**
 * The bundled sessions and the file side of sessions: lessons listed in path order (only those
 * whose file is bundled), examples with their words or a title from the name, every bundled
 * file loading as text, and the names and text an export writes.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LESSONS, type Lesson } from '../../session/lessons.ts';
import type { Session } from '../../worker/client.ts';
import { bundledExamples, bundledLessons, fileStem } from './bundled.ts';
import { sessionFileName, sessionFileText } from './download.ts';

const text = (t: string) => () => Promise.resolve(t);
const lesson = (id: string, order: number): Lesson => ({
  id,
  order,
  title: id.toUpperCase(),
  intro: `about ${id}`,
  steps: [],
});

describe('bundled lessons and examples', () => {
  it('lists lessons in path order, leaving out those without a bundled file', () => {
    const files = {
      '/lessons/b.session.json': text('B'),
      '/lessons/a.session.json': text('A'),
      '/lessons/stray.session.json': text('?'),
    };
    const listed = bundledLessons(files, [lesson('b', 2), lesson('missing', 3), lesson('a', 1)]);
    expect(listed.map((e) => [e.key, e.title, e.caption, e.lesson?.order])).toEqual([
      ['lesson:a', 'A', 'about a', 1],
      ['lesson:b', 'B', 'about b', 2],
    ]);
  });

  it.each([
    ['/examples/drifted-edit.session.json', 'A drifted edit'],
    ['/examples/new-one_here.session.json', 'New one here'],
  ])('titles the example %s as %s', (path, title) => {
    expect(bundledExamples({ [path]: text('') })[0]!.title).toBe(title);
  });

  it('bundles every example and every lesson file that has a lesson, each loading as a session', async () => {
    const lessonFiles = readdirSync('lessons')
      .filter((f) => f.endsWith('.session.json'))
      .map(fileStem);
    expect(bundledLessons().map((e) => e.lesson!.id)).toEqual(
      LESSONS.filter((l) => lessonFiles.includes(l.id)).map((l) => l.id),
    );
    const examples = bundledExamples();
    expect(examples.map((e) => e.key)).toEqual(
      readdirSync('examples')
        .filter((f) => f.endsWith('.session.json'))
        .map((f) => `example:${fileStem(f)}`)
        .sort(),
    );
    for (const e of [...examples, ...bundledLessons()]) expect((JSON.parse(await e.load()) as Session).v).toBe(1);
  });
});

describe('session files', () => {
  it.each([
    [
      'tiny-utils (starter) · scripted: Fix truncate in tiny-utils',
      'tiny-utils-starter-scripted-fix-truncate-in-tiny-utils.session.json',
    ],
    [
      'Shared link: Run the tests with `npm test`. One fails: fix the bug in the library',
      'shared-link-run-the-tests-with-npm-test-one-fails-fix-the-bu.session.json',
    ],
    ['Café — ünïcode', 'cafe-unicode.session.json'],
    ['***', 'session.session.json'],
  ])('names %j as %s', (title, name) => {
    expect(sessionFileName(title)).toBe(name);
  });

  it('writes the whole record, pretty-printed, which parses back to the same record', () => {
    const session = { v: 1, steps: [{ raw: 'x', resultText: 'y' }] } as unknown as Session;
    const written = sessionFileText(session);
    expect(written.endsWith('}\n')).toBe(true);
    expect(JSON.parse(written)).toEqual(session);
  });
});
