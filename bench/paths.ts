/**
 * The path corpus (`paths-dev.json`) through ws_write / ws_read, beside the lexical check many
 * harnesses use (`path.resolve(root, p)` must start with the root, and not with `.slmcode/`
 * unless it is under `.slmcode/scratch/`). A case is right when the decision matches and a
 * refused write left every file of the filesystem — the sibling `/outside` included — as it was.
 */
import { posix } from 'node:path';
import { createEngine } from '../src/engine/create.ts';
import { readJson } from '../tests/support/corpus.ts';
import { pathFixtureWorkspace } from '../tests/support/path-fixture.ts';
import type { MemoryWorkspace } from '../src/workspace/memory/memory-workspace.ts';
import type { BenchSectionDef } from './table.ts';

interface PathCase {
  readonly path: string;
  readonly op: 'read' | 'write';
  readonly expect: 'ok' | 'refuse';
}

const ROOT = '/ws';

/** Every path of the in-memory filesystem with its bytes, to prove a refusal wrote nothing anywhere. */
async function snapshot(ws: MemoryWorkspace): Promise<string> {
  const out: string[] = [];
  for (const p of ws.fs.getAllPaths().sort()) {
    const st = await ws.fs.lstat(p);
    out.push(st.isFile ? `${p}=${await ws.fs.readFile(p)}` : p);
  }
  return out.join('\n');
}

/** The common lexical check: resolve against the root, stay under it, keep out of .slmcode/ except scratch. */
function lexicalCheck(c: PathCase): boolean {
  const abs = posix.resolve(ROOT, c.path);
  if (abs !== ROOT && !abs.startsWith(`${ROOT}/`)) return false;
  if (c.op === 'read') return true;
  const rel = abs.slice(ROOT.length + 1);
  return !(rel === '.slmcode' || rel.startsWith('.slmcode/')) || rel.startsWith('.slmcode/scratch/');
}

export function pathCorpusSection(): BenchSectionDef {
  return {
    title: 'paths-dev.json through ws_write / ws_read vs a lexical resolve-and-prefix check',
    async run() {
      const cases = readJson<PathCase[]>('paths-dev.json');
      let ours = 0;
      let oursWroteOnRefusal = 0;
      let baseline = 0;
      const details: string[] = [];
      for (const c of cases) {
        const ws = await pathFixtureWorkspace();
        // The jail is what is measured: overwriting an existing fixture file needs no prior read here.
        const engine = createEngine(ws, { read_before_edit: false });
        const before = await snapshot(ws);
        const r =
          c.op === 'write'
            ? await engine.call('ws_write', { path: c.path, content: 'x\n' })
            : await engine.call('ws_read', { path: c.path });
        const jailed = r.notes.some((n) => n.kind === 'refusal' && n.detail?.startsWith('jail:'));
        const decidedOk = c.op === 'write' ? r.ok : !jailed;
        const untouched = c.expect === 'ok' || (await snapshot(ws)) === before;
        if (!untouched) oursWroteOnRefusal++;
        if ((decidedOk ? 'ok' : 'refuse') === c.expect && untouched) ours++;
        else details.push(`${c.op} ${JSON.stringify(c.path)}: expected ${c.expect} — ${r.text.split('\n')[0]}`);
        if ((lexicalCheck(c) ? 'ok' : 'refuse') === c.expect) baseline++;
      }
      const pct = (n: number) => `${((100 * n) / cases.length).toFixed(1)}%`;
      return {
        title: this.title,
        unit: 'cases right (decision, and nothing written on a refusal)',
        rows: [
          {
            figure: `all ${cases.length} path cases`,
            ours: `${pct(ours)} (${ours}/${cases.length}); refusals that wrote: ${oursWroteOnRefusal}`,
            baseline: `${pct(baseline)} (${baseline}/${cases.length})`,
            target: {
              text: 'every case right, nothing written',
              met: ours === cases.length && oursWroteOnRefusal === 0,
            },
          },
        ],
        details,
      };
    },
  };
}
