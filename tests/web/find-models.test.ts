/** find_models over the CLI's model list: both catalogs with their facts, and the task hint's order. */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create.ts';
import { nodeModels } from '../../src/cli/models-node.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';

const engine = () =>
  createEngine(new MemoryWorkspace(), { specialist_tools: true }, { outside: { models: nodeModels } });
const ids = (text: string) => [...text.matchAll(/^- (\S+) —/gm)].map((m) => m[1]!);

describe('find_models', () => {
  it('lists the GGUF and WebLLM catalogs with size, context, cache and fit', async () => {
    const r = await engine().call('find_models', {});
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/^\d+ model\(s\) this host can run \(smallest first\):/);
    expect(r.text).toMatch(
      /^- gguf:\S+ — .*; gguf, \d+ MB, cached: unknown, fits here: (yes|no) \(needs about \d+ MB of memory/m,
    );
    expect(r.text).toMatch(
      /^- \S+-MLC — .*; webllm, \d+ MB, context \d+, cached: unknown, fits here: no \(WebGPU in a browser tab/m,
    );
    const sizes = [...r.text.matchAll(/; \w+, (\d+) MB/g)].map((m) => Number(m[1]));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it('a coding task puts coding models first', async () => {
    const r = await engine().call('find_models', { task: 'fix the failing test' });
    expect(r.text).toMatch(/\(coding models first, then smallest first\)/);
    const list = ids(r.text);
    const firstOther = list.findIndex((id) => !/coder|code/i.test(id));
    expect(firstOther).toBeGreaterThan(0);
    expect(list.slice(firstOther).some((id) => /coder|code/i.test(id))).toBe(false);
  });

  it('says so on a host with no model list', async () => {
    const r = await createEngine(new MemoryWorkspace(), { specialist_tools: true }).call('find_models', {});
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/find_models has no model list on this host/);
  });
});
