/**
 * The shell policy against the shell corpora. Mapping: expect "allow" ⇔ decision allow; expect
 * "refuse" with tier_hint gated ⇔ gated; with never ⇔ refuse.
 * - shell-dev.json: no refuse case may be allowed, and at most 3% of allow cases refused.
 * - shell-peers.json: no refuse case may be allowed either; allow cases the policy refuses must
 *   fall under the disagreements docs/SHELL-POLICY.md explains (parameter expansion, ~, paths
 *   outside the workspace, tail -f and rg -z, zsh/extglob patterns), so a new kind of
 *   over-refusal fails the test.
 * Figures (and the median decision time) are printed.
 */
import type { Parser } from 'web-tree-sitter';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJson } from '../support/corpus.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { parserFor } from '../../src/engine/treesitter/loader.ts';
import { decideShell } from '../../src/engine/shell/index.ts';
import type { ShellDecision } from '../../src/engine/shell/index.ts';

interface ShellCase {
  cmd: string;
  expect: 'allow' | 'refuse';
  tier_hint: 'free' | 'gated' | 'never';
  note?: string;
}

/** Rules behind the documented peer disagreements (see docs/SHELL-POLICY.md). */
const DOCUMENTED_OVER_REFUSALS = new Set(['expansion', 'tilde', 'outside-path', 'writer-flag', 'parse']);

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

const wanted = (c: ShellCase): ShellDecision['decision'] =>
  c.expect === 'allow' ? 'allow' : c.tier_hint === 'gated' ? 'gated' : 'refuse';
const pct = (a: number, n: number): string => `${((100 * a) / n).toFixed(1)}%`;

interface Figures {
  readonly allowN: number;
  readonly allowRefused: ShellCase[];
  readonly refuseN: number;
  readonly refuseAllowed: ShellCase[];
  readonly tierMismatch: number;
  readonly decisions: Map<ShellCase, ShellDecision>;
}

function run(cases: readonly ShellCase[]): Figures {
  const decisions = new Map<ShellCase, ShellDecision>();
  const allow = cases.filter((c) => c.expect === 'allow');
  const refuse = cases.filter((c) => c.expect === 'refuse');
  for (const c of cases) decisions.set(c, decideShell(parser, c.cmd));
  return {
    allowN: allow.length,
    allowRefused: allow.filter((c) => decisions.get(c)!.decision !== 'allow'),
    refuseN: refuse.length,
    refuseAllowed: refuse.filter((c) => decisions.get(c)!.decision === 'allow'),
    tierMismatch: refuse.filter(
      (c) => decisions.get(c)!.decision !== 'allow' && decisions.get(c)!.decision !== wanted(c),
    ).length,
    decisions,
  };
}

function report(name: string, f: Figures): void {
  console.log(
    `${name}: allow cases refused ${f.allowRefused.length}/${f.allowN} (${pct(f.allowRefused.length, f.allowN)}); ` +
      `refuse cases allowed ${f.refuseAllowed.length}/${f.refuseN}; ` +
      `refused with another tier than tier_hint ${f.tierMismatch}/${f.refuseN - f.refuseAllowed.length}`,
  );
}

describe('shell-dev.json', () => {
  it('allows no refuse case and refuses at most 3% of allow cases', () => {
    const f = run(readJson<ShellCase[]>('shell-dev.json'));
    report('shell-dev', f);
    expect(f.refuseAllowed.map((c) => c.cmd)).toEqual([]);
    expect(f.allowRefused.length / f.allowN).toBeLessThanOrEqual(0.03);
  });

  it('explains every refusal: tier named, offending part quoted, a next step given', () => {
    for (const d of run(readJson<ShellCase[]>('shell-dev.json')).decisions.values()) {
      if (d.decision === 'allow') continue;
      expect(d.reason).toMatch(/\(tier (gated|never)\): .*".+".*\. \S/s);
    }
  });
});

describe('shell-peers.json', () => {
  it('allows no refuse case, and over-refuses only where the policy documents a disagreement', () => {
    const f = run(readJson<ShellCase[]>('shell-peers.json'));
    report('shell-peers', f);
    const byRule = new Map<string, number>();
    for (const c of f.allowRefused)
      byRule.set(f.decisions.get(c)!.rule, (byRule.get(f.decisions.get(c)!.rule) ?? 0) + 1);
    console.log(`shell-peers allow cases refused, by rule: ${[...byRule].map(([r, n]) => `${r} ${n}`).join(', ')}`);
    expect(f.refuseAllowed.map((c) => c.cmd)).toEqual([]);
    const undocumented = f.allowRefused.filter((c) => !DOCUMENTED_OVER_REFUSALS.has(f.decisions.get(c)!.rule));
    expect(undocumented.map((c) => `${c.cmd} → ${f.decisions.get(c)!.reason}`)).toEqual([]);
  });
});

describe('speed', () => {
  it('decides in well under a millisecond once the parser is loaded', () => {
    const cmds = [...readJson<ShellCase[]>('shell-dev.json'), ...readJson<ShellCase[]>('shell-peers.json')].map(
      (c) => c.cmd,
    );
    for (const c of cmds) decideShell(parser, c);
    const times: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (const c of cmds) {
        const t0 = performance.now();
        decideShell(parser, c);
        times.push(performance.now() - t0);
      }
    }
    times.sort((a, b) => a - b);
    const median = times[times.length >> 1]!;
    const p95 = times[Math.floor(times.length * 0.95)]!;
    console.log(
      `shell policy: median ${(median * 1000).toFixed(0)} µs, p95 ${(p95 * 1000).toFixed(0)} µs per decision over ${times.length} decisions`,
    );
    expect(median).toBeLessThan(0.5);
  });
});
