/**
 * `slm serve-web [--port P] [--host ADDR] [--origin URL] [--allow-private]`: serves the web
 * companion (../serve-web.ts) so the tab's web_fetch and web_search reach the web through this
 * machine, until Ctrl-C. Prints the address and the token once; each request is logged on stderr.
 */
import { COMPANION_DEFAULT_PORT, COMPANION_PATH } from '../../platform/companion-wire.ts';
import { EXIT, parseOptions, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { loopbackHost, MAX_IN_FLIGHT, MAX_REQUEST_MS, pageOrigin, startCompanion } from '../serve-web.ts';

/** The Vite dev server's origin, the page a local checkout serves. */
export const DEV_ORIGIN = 'http://localhost:5173';

const USAGE = `slm serve-web [--port ${COMPANION_DEFAULT_PORT}] [--host 127.0.0.1] [--origin ${DEV_ORIGIN}] [--allow-private]
    Serves the web companion: the tab's web_fetch and web_search make their GETs through this
    machine, under the same rules as slm call (http/https only, at most 5 redirects each checked
    by the tab's engine, 5 MB bodies, private addresses refused). It listens on a loopback
    address only (--host: 127.0.0.1, ::1 or localhost; port 0 picks a free one), answers only the
    page at --origin (CORS; default the dev server's), and only requests carrying the token it
    prints once at start. --allow-private lets a session's web_allow_private reach loopback and
    private addresses through it (refused otherwise). Runs until Ctrl-C; exit 0 then,
    1 when the port cannot be used, 2 for usage errors.`;

function usage(message: string): UsageError {
  return new UsageError(`slm serve-web: ${message}`, USAGE);
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  origin: { type: 'string' },
  'allow-private': { type: 'boolean' },
} as const;

interface ServeRequest {
  readonly port: number;
  readonly host: string;
  readonly origin: string;
  readonly allowPrivate: boolean;
}

function parseCommandLine(argv: readonly string[]): ServeRequest {
  const v = parseOptions(argv, OPTIONS, usage);
  const portText = v.port ?? String(COMPANION_DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) throw usage(`--port ${portText} is not a port number (0 to 65535)`);
  const host = v.host ?? '127.0.0.1';
  if (!loopbackHost(host))
    throw usage(
      `--host ${host} is not a loopback address: the companion is reachable from this machine only ` +
        `(127.0.0.1, ::1 or localhost), so nothing on the network can use it`,
    );
  const origin = pageOrigin(v.origin ?? DEV_ORIGIN);
  if (!origin.ok) throw usage(origin.text);
  return { port, host, origin: origin.origin, allowPrivate: v['allow-private'] ?? false };
}

/** Resolves when the process is asked to stop (Ctrl-C or SIGTERM). */
function interrupted(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** Serves until `stop` settles; the command's body, with the stop signal given (tests give their own). */
export async function serveWeb(argv: readonly string[], io: CliIO, stop: Promise<void>): Promise<number> {
  const req = parseCommandLine(argv);
  let companion;
  try {
    companion = await startCompanion({
      ...req,
      log: (line) => io.stderr.write(`${new Date().toISOString()} ${line}\n`),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why =
      code === 'EADDRINUSE'
        ? `port ${req.port} is already in use on ${req.host}; pick another with --port`
        : `could not listen on ${req.host}:${req.port} (${(e as Error).message})`;
    io.stderr.write(`slm serve-web: ${why}\n`);
    return EXIT.failed;
  }
  await writeOut(
    io.stdout,
    [
      `slm serve-web: the web companion for the page at ${req.origin}`,
      `url: ${companion.url}`,
      `token: ${companion.token}`,
      `Enter both in the tab's outside-tools settings. The token is shown only now; a restart makes a new one.`,
      `Answers POST ${COMPANION_PATH} from ${req.origin} only, ${MAX_IN_FLIGHT} requests at a time, each ended at ${MAX_REQUEST_MS / 1000} s.`,
      req.allowPrivate
        ? 'Loopback and private addresses: reachable when the session allows them (web_allow_private).'
        : 'Loopback and private addresses: refused (start with --allow-private to let web_allow_private reach them).',
      'Each request is logged on stderr. Stop with Ctrl-C.',
      '',
    ].join('\n'),
  );
  await stop;
  await companion.close();
  return EXIT.ok;
}

/** The `serve-web` subcommand. */
export const serveWebCommand: CommandEntry = {
  summary: "serves the tab's web_fetch and web_search through this machine (loopback, one page, a token)",
  usage: USAGE,
  run: (argv, io) => serveWeb(argv, io, interrupted()),
};
