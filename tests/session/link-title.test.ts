/**
 * What a v2 link carries beyond the run: a short title (cut at LINK_TITLE_CHARS, whitespace made
 * one space) only while the whole link stays within COMFORTABLE_LINK_CHARS, never the note; and
 * a branch's branch point and where a reload cut the run short. All come back through the record gate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LINK_TITLE_CHARS, linkTitle } from '../../src/session/link-form.ts';
import type { Session } from '../../src/session/record.ts';
import { COMFORTABLE_LINK_CHARS, decodeShare, shareUrl } from '../../src/session/share-codec.ts';
import { recordScript } from './support.ts';

let session: Session;
beforeAll(async () => {
  session = await recordScript();
});

const BASE = 'http://localhost:4173/#/run';

async function roundTrip(s: Session): Promise<{ url: string; back: Session }> {
  const url = await shareUrl(s, BASE);
  const checked = await decodeShare(url);
  if (!checked.ok) throw new Error(checked.text);
  return { url, back: checked.session };
}

describe('a title in a link', () => {
  it.each([
    ['a short title, as it is', 'My tidy fix', 'My tidy fix'],
    ['whitespace runs, as one space', '  Fix\n\tthe   add  ', 'Fix the add'],
    ['a long title, cut with an ellipsis', 'x'.repeat(150), `${'x'.repeat(LINK_TITLE_CHARS - 1)}…`],
  ])('%s', async (_what, title, carried) => {
    expect(linkTitle(title)).toBe(carried);
    const { url, back } = await roundTrip({ ...session, title, note: 'a note stays with the file' });
    expect(url.length).toBeLessThanOrEqual(COMFORTABLE_LINK_CHARS);
    expect(back.title).toBe(carried);
    expect(back.note).toBeUndefined();
  });

  it('is left out when it would take the link past what chat apps keep, and the link is otherwise the same', async () => {
    const bare = await shareUrl(session, BASE);
    // A base address long enough that the titled link no longer fits, while the bare one still does.
    const room = COMFORTABLE_LINK_CHARS - bare.length;
    const titled = await shareUrl({ ...session, title: 'A title of some forty characters, no more' }, BASE);
    const cost = titled.length - bare.length;
    expect(cost).toBeGreaterThan(0);
    const base = `http://localhost:4173/${'p'.repeat(room - Math.floor(cost / 2))}/#/run`;
    const tight = await shareUrl({ ...session, title: 'A title of some forty characters, no more' }, base);
    expect(tight).toBe(await shareUrl(session, base));
    expect(tight.length).toBeLessThanOrEqual(COMFORTABLE_LINK_CHARS);
    const checked = await decodeShare(tight);
    expect(checked.ok && checked.session.title).toBe(undefined);
  });

  it('a link without a title decodes without one', async () => {
    expect((await roundTrip(session)).back.title).toBeUndefined();
  });
});

describe('a branch in a link', () => {
  it('carries the branch point', async () => {
    const branch = { parentHash: '0123456789ab', parentId: 'lesson:copying-from-a-read', step: 2 };
    expect((await roundTrip({ ...session, branch })).back.branch).toEqual(branch);
  });
});

describe('a cut-short run in a link', () => {
  it('carries the steps after which a reload cut it short', async () => {
    expect((await roundTrip({ ...session, cutShort: [1, 2] })).back.cutShort).toEqual([1, 2]);
    expect((await roundTrip(session)).back.cutShort).toBeUndefined();
  });
});
