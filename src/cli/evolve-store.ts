/**
 * The edit-format bandit's table in a JSON file, for `slm run --evolve FILE`: a missing file
 * starts a fresh table; an unreadable or malformed one is a message, never silently replaced.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseBanditTable, type BanditStore, type BanditTable } from '../agent/evolve.ts';

export class FileBanditStore implements BanditStore {
  constructor(readonly path: string) {}

  /** null when the file does not exist yet; throws an Error naming the file when it is not a bandit table. */
  async load(): Promise<BanditTable | null> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return null;
      throw new Error(`cannot read the bandit table ${this.path}: ${(e as Error).message}`, { cause: e });
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(
        `the bandit table ${this.path} is not valid JSON (${(e as Error).message}); fix it or give another --evolve file.`,
        { cause: e },
      );
    }
    const table = parseBanditTable(value);
    if (!table)
      throw new Error(`${this.path} is not a bandit table ({"v": 1, "arms": {…}}); give another --evolve file.`);
    return table;
  }

  /** Writes through a temporary file, so an interrupted run never leaves half a table. */
  async save(table: BanditTable): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify(table, null, 2)}\n`);
    await rename(tmp, this.path);
  }
}
