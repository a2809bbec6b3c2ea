/**
 * `slm replay FILE_OR_URL [--print]`: verifies a recorded session headless. The session comes
 * from a file (.session.json), a share link with `#s=…`, or the encoded string alone; it is
 * checked as untrusted input, replayed in a fresh memory workspace, and every step's result
 * and workspace compared with the record. The verdict goes to stdout; `--print` also prints
 * every step's result text exactly as the model saw it, under a header line. Exit 0 when every
 * step reproduces (identical, or equivalent: a command's output that differs only where backends
 * differ; `--strict` demands identical), 1 at a divergence, 2 for a malformed command line or a session that cannot
 * be read (with the reason). Part of the public CLI contract. A recorded approval is never an
 * approval here: a gated command is not run, and its step is reported as not reproduced
 * without an approval.
 */
import { readFile, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { replaySession, type StepCheck } from '../../session/replay.ts';
import { formatReplay, stepHeader } from '../../session/replay-text.ts';
import { decodeShare, MAX_SESSION_FILE_BYTES, parseSessionFile } from '../../session/share-codec.ts';
import type { SessionCheck } from '../../session/validate.ts';
import { EXIT, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { replayWorkspace } from '../replay-workspace.ts';

const USAGE = `slm replay FILE_OR_URL [--print] [--strict]
    Replays a recorded session in a fresh memory workspace and checks every step against the record.
    A session that ran commands runs them again inside the OS sandbox (bubblewrap: no network, only a temporary copy writable);
    where bubblewrap cannot run, they are not run and their steps cannot reproduce.
    FILE_OR_URL is a session file (.session.json), a share link with #s=…, or the encoded string alone.
    --print prints every step's result text exactly as the model saw it, each under a "=== step N · TOOL · ✓" line.
    A command step whose output differs only where backends differ (stack frames, paths, timings) with the same exit code,
    tally, failing tests and workspace is equivalent (≈): it counts as reproduced, and the verdict says how many and where.
    --strict demands every step identical, byte for byte: an equivalent step then exits 1.
    Exit 0 when every step reproduces, 1 at the first divergence, 2 for usage errors and sessions that cannot be read.`;

function usage(message: string): UsageError {
  return new UsageError(`slm replay: ${message}`, USAGE);
}

/** The one input as a session: a file when one exists at that path, else a link or its encoded part. */
async function loadSession(input: string): Promise<SessionCheck> {
  const st = await stat(input).catch(() => null);
  if (st?.isFile()) {
    if (st.size > MAX_SESSION_FILE_BYTES) {
      return {
        ok: false,
        kind: 'too-large',
        text: `${input} is ${st.size} bytes, more than the ${MAX_SESSION_FILE_BYTES} a session file may have, so it was not read; is it a session file?`,
      };
    }
    return parseSessionFile(await readFile(input, 'utf8'));
  }
  if (st) throw usage(`${input} is a directory; give a session file (.session.json) or a share link`);
  // Something path-like that is not there: a missing file, not a link to decode.
  if (!input.includes('#') && /\.json$|^\.{0,2}\//.test(input))
    throw usage(`no file ${input}; give a session file (.session.json), a share link with #s=…, or the encoded string`);
  return decodeShare(input);
}

async function runReplay(argv: readonly string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { print: { type: 'boolean' }, strict: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw usage((e as Error).message);
  }
  const [input, ...extra] = parsed.positionals;
  if (input === undefined)
    throw usage('name the session: a file (.session.json), a share link with #s=…, or the encoded string');
  if (extra.length) throw usage(`one session at a time; unexpected ${extra.map((x) => JSON.stringify(x)).join(' ')}`);
  const print = parsed.values.print ?? false;

  const loaded = await loadSession(input);
  if (!loaded.ok) {
    await writeOut(io.stderr, `slm replay: ${loaded.text}\n`);
    return EXIT.usage;
  }
  // Printing follows the steps in order; each write waits for the stream, so output stays ordered.
  let printing: Promise<void> = Promise.resolve();
  const onCheck = (check: StepCheck) => {
    printing = printing.then(() => writeOut(io.stdout, `${stepHeader(check)}\n${check.seenText}\n`));
  };
  const { ws, notRun } = await replayWorkspace(loaded.session);
  if (notRun) await writeOut(io.stderr, `slm replay: ${notRun}\n`);
  const report = await replaySession(loaded.session, { workspace: ws, ...(print && { onCheck }) });
  await printing;
  await writeOut(io.stdout, formatReplay(report));
  if (report.ok && report.equivalent > 0 && parsed.values.strict) {
    await writeOut(
      io.stdout,
      `✗ --strict: ${report.equivalent} step${report.equivalent === 1 ? ' is' : 's are'} equivalent, not identical; without --strict this replay passes.\n`,
    );
    return EXIT.failed;
  }
  return report.ok ? EXIT.ok : EXIT.failed;
}

/** The `replay` subcommand. */
export const replayCommand: CommandEntry = {
  summary: 'replays a session file or share link and checks every step',
  usage: USAGE,
  run: runReplay,
};
