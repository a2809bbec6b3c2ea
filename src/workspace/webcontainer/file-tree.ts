/**
 * A template's flat file map (`'src/index.js' → text`) as the nested tree `WebContainer.mount`
 * takes, so a whole template lands in one call instead of one write per file.
 */
import type { DirectoryNode, FileSystemTree } from '@webcontainer/api';

/**
 * The mount tree of `files` (POSIX paths relative to the root). Throws on a path that is not a
 * plain relative path or that needs one name to be both a file and a directory: templates are
 * bundled data or files the jail already accepted, so either is a bug in the caller.
 */
export function toFileTree(files: Readonly<Record<string, string | Uint8Array>>): FileSystemTree {
  const root: FileSystemTree = {};
  for (const [path, contents] of Object.entries(files)) {
    const parts = path.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..')) {
      throw new TypeError(`toFileTree: ${JSON.stringify(path)} is not a plain relative path`);
    }
    let dir = root;
    for (const [i, name] of parts.entries()) {
      const node = dir[name];
      if (i === parts.length - 1) {
        if (node) throw new TypeError(`toFileTree: ${path} is both a file and a directory`);
        dir[name] = { file: { contents } };
      } else if (node === undefined) {
        const sub: DirectoryNode = { directory: {} };
        dir[name] = sub;
        dir = sub.directory;
      } else if ('directory' in node) {
        dir = node.directory;
      } else {
        throw new TypeError(
          `toFileTree: ${parts.slice(0, i + 1).join('/')} is both a file and a directory (needed by ${path})`,
        );
      }
    }
  }
  return root;
}
