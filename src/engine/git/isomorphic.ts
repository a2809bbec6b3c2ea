/**
 * isomorphic-git, loaded on the first git call (git_status, git_diff, ws_mv's index update,
 * seeding a template's repository) rather than with the engine: a timed first-use load
 * (lazy-load.ts). Every git module takes the library from here.
 */
import { loadOnce } from '../lazy-load.ts';

export type Git = typeof import('isomorphic-git').default;

export const loadGit: () => Promise<Git> = loadOnce(
  'git (isomorphic-git)',
  async () => (await import('isomorphic-git')).default,
);
