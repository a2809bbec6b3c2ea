/** The registry: the coding tool set, in the order the prompt's tool cards list them. */
import type { ToolDef } from '../tool.ts';
import { wsRead } from './ws_read.ts';
import { wsWrite } from './ws_write.ts';
import { wsEdit } from './ws_edit.ts';
import { wsReplaceLines } from './ws_replace_lines.ts';
import { wsMv } from './ws_mv.ts';
import { wsDelete } from './ws_delete.ts';
import { wsList } from './ws_list.ts';
import { wsGlob } from './ws_glob.ts';
import { wsGrep } from './ws_grep.ts';

export const CODING_TOOLS: readonly ToolDef<any>[] = [
  wsRead,
  wsWrite,
  wsEdit,
  wsReplaceLines,
  wsMv,
  wsDelete,
  wsList,
  wsGlob,
  wsGrep,
];
