/**
 * The registry: the coding tool set, in the order the prompt's tool cards list them, and the
 * specialist tools the setting `specialist_tools` adds (the spec's ToolNames() and
 * SpecialistToolNames() split).
 */
import type { ToolDef } from '../tool.ts';
import { wsRead } from './ws_read.ts';
import { wsWrite } from './ws_write.ts';
import { wsEdit } from './ws_edit.ts';
import { wsReplaceLines } from './ws_replace_lines.ts';
import { wsPatch } from './ws_patch.ts';
import { wsMv } from './ws_mv.ts';
import { wsDelete } from './ws_delete.ts';
import { wsList } from './ws_list.ts';
import { wsGlob } from './ws_glob.ts';
import { wsGrep } from './ws_grep.ts';
import { wsShell } from './ws_shell.ts';
import { wsTest } from './ws_test.ts';
import { gitStatus } from './git_status.ts';
import { gitDiff } from './git_diff.ts';
import { wsTodo } from './ws_todo.ts';
import { wsSkill } from './ws_skill.ts';
import { webSearch } from './web_search.ts';
import { webFetch } from './web_fetch.ts';
import { mcpCall } from './mcp_call.ts';
import { findModels } from './find_models.ts';

export const CODING_TOOLS: readonly ToolDef<any>[] = [
  wsRead,
  wsWrite,
  wsEdit,
  wsReplaceLines,
  wsPatch,
  wsMv,
  wsDelete,
  wsList,
  wsGlob,
  wsGrep,
  wsShell,
  wsTest,
  gitStatus,
  gitDiff,
  wsTodo,
  wsSkill,
];

/** The specialist tools: they reach outside the workspace, so a setting turns them on. */
export const SPECIALIST_TOOLS: readonly ToolDef<any>[] = [webSearch, webFetch, mcpCall, findModels];
