/** TerminalFeed: live delivery, the bounded replay for late panels, and a throwing panel. */
import { describe, expect, it } from 'vitest';
import { TerminalFeed, type TerminalEvent } from './terminal-feed.ts';

const out = (data: string): TerminalEvent => ({ kind: 'output', data });

describe('TerminalFeed', () => {
  it('replays the backlog to a late subscriber, then delivers live; unsubscribe stops it', () => {
    const feed = new TerminalFeed();
    feed.emit({ kind: 'command', argv: ['npm', 'test'], cwd: '' });
    feed.emit(out('ok\n'));
    const got: TerminalEvent[] = [];
    const stop = feed.subscribe((e) => got.push(e));
    feed.emit({ kind: 'exit', exitCode: 0 });
    stop();
    feed.emit(out('after'));
    expect(got).toEqual([
      { kind: 'command', argv: ['npm', 'test'], cwd: '' },
      out('ok\n'),
      { kind: 'exit', exitCode: 0 },
    ]);
  });

  it('keeps the backlog within its bound, dropping the oldest events first', () => {
    const feed = new TerminalFeed(10);
    for (const s of ['aaaa', 'bbbb', 'cccc']) feed.emit(out(s));
    const got: TerminalEvent[] = [];
    feed.subscribe((e) => got.push(e));
    expect(got).toEqual([out('bbbb'), out('cccc')]);
  });

  it('an event larger than the bound is still replayed on its own', () => {
    const feed = new TerminalFeed(3);
    feed.emit(out('0123456789'));
    const got: TerminalEvent[] = [];
    feed.subscribe((e) => got.push(e));
    expect(got).toEqual([out('0123456789')]);
  });

  it('drops a listener that throws, reports its error, and keeps serving the others', () => {
    const errors: unknown[] = [];
    const feed = new TerminalFeed(1000, (e) => errors.push(e));
    const good: TerminalEvent[] = [];
    let calls = 0;
    feed.subscribe(() => {
      calls++;
      throw new Error('panel bug');
    });
    feed.subscribe((e) => good.push(e));
    feed.emit(out('one'));
    feed.emit(out('two'));
    expect(calls).toBe(1);
    expect(good).toEqual([out('one'), out('two')]);
    expect(errors.map((e) => (e as Error).message)).toEqual(['panel bug']);
  });
});
