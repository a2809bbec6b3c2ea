/**
 * find_models: the models this playground can run here and now, from the host's list (the
 * WebLLM and GGUF catalogs with size, context length, whether cached, whether they fit this
 * device, and a configured endpoint's own list). A `task` hint that reads like coding puts coding models first; otherwise smallest first.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import type { ModelListing } from '../models-listing.ts';

const schema = z.object({
  task: z
    .string()
    .optional()
    .describe('What the model is for, e.g. "fix a failing test"; coding tasks list coding models first'),
});

const CODING_TASK = /\b(code|coding|bug|fix|test|refactor|program|function|compile|implement)/i;
const CODING_MODEL = /coder|code/i;

function yesNo(v: boolean | undefined): string {
  return v === undefined ? 'unknown' : v ? 'yes' : 'no';
}

function line(m: ModelListing): string {
  const facts = [
    m.engine,
    m.sizeMB !== undefined ? `${m.sizeMB} MB` : undefined,
    m.contextWindow !== undefined ? `context ${m.contextWindow}` : undefined,
    `cached: ${yesNo(m.cached)}`,
    `fits here: ${yesNo(m.fits)}${m.why ? ` (${m.why})` : ''}`,
  ].filter(Boolean);
  return `- ${m.id} — ${m.label}; ${facts.join(', ')}`;
}

export const findModels = defineTool({
  name: 'find_models',
  summary: 'List the models this playground can run here, with size, context, cache and fit',
  writes: false,
  schema,
  aliases: { hint: 'task', for: 'task' },
  async run(args, ctx) {
    const list = ctx.outside?.models;
    if (!list)
      return refusal(
        'find_models has no model list on this host (the slm CLI gives one). Carry on with the model you have.',
        'no-models',
      );
    const got = await list();
    const models = [...got.models];
    const notes = got.notes?.length ? `\n${got.notes.join('\n')}` : '';
    const coding = args.task !== undefined && CODING_TASK.test(args.task);
    const rank = (m: ModelListing) => (coding && CODING_MODEL.test(`${m.id} ${m.label}`) ? 0 : 1);
    models.sort(
      (a, b) => rank(a) - rank(b) || (a.sizeMB ?? Infinity) - (b.sizeMB ?? Infinity) || a.id.localeCompare(b.id),
    );
    if (!models.length) return ok(`No models are listed on this host.${notes}`);
    const order = coding ? 'coding models first, then smallest first' : 'smallest first';
    return ok(`${models.length} model(s) this host can run (${order}):\n${models.map(line).join('\n')}${notes}`);
  },
});
