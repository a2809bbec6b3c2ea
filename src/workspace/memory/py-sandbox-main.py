"""python3's command line for the tab's Pyodide (py-sandbox-runtime.js runs it).

CPython's own options, as far as a program can see them: `-c CMD`, `-m MOD`, a script path,
`-` (the program on stdin), `-I`, `-E`, `-s`, `-S`, `-P`, `-B`, `-u`, `-q`, `-O`, `-W ARG`,
`-X ARG`, `-V`, `-h`. `sys.argv` and `sys.path[0]` are set as CPython sets them; SystemExit
gives the exit code; an uncaught exception prints its traceback without this file's frames.
`pytest` is not in the standard library and the sandbox has no network to fetch it: the page
brings its wheels when Pyodide's package index is reachable (py-wheels.ts); without them it says
so and names the runner that works offline. Returns the exit code.
"""

import os
import sys

USAGE = "usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ..."
NO_PYTEST = (
    "pytest needs a connection: it is not part of Python's standard library, in the browser it comes from "
    "Pyodide's package index, which could not be reached (the sandbox itself has no network).\n"
    "python3 -m unittest works offline: run python3 -m unittest discover (test files named test_*.py, "
    "with test classes that subclass unittest.TestCase)."
)
FLAGS = set("IEsSPBuqObdv")


def parse(argv):
    """(options, what, target, rest): what is 'c', 'm', 'file', 'stdin', 'version', 'help' or an error text."""
    opts = set()
    warnings = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if a in ("--version",):
            return opts, warnings, "version", None, []
        if a in ("--help", "-?"):
            return opts, warnings, "help", None, []
        if not a.startswith("-") or a == "-":
            break
        j = 1
        while j < len(a):
            f = a[j]
            if f in ("c", "m", "W", "X"):
                value = a[j + 1 :]
                if not value:
                    i += 1
                    if i >= len(argv):
                        return opts, warnings, f"Argument expected for the -{f} option", None, []
                    value = argv[i]
                if f == "c":
                    return opts, warnings, "c", value, argv[i + 1 :]
                if f == "m":
                    return opts, warnings, "m", value, argv[i + 1 :]
                if f == "W":
                    warnings.append(value)
                break
            if f == "V":
                return opts, warnings, "version", None, []
            if f == "h":
                return opts, warnings, "help", None, []
            if f == "i":
                return opts, warnings, "python3 -i (interactive) is not available: there is no terminal here; run a script or -c", None, []
            if f not in FLAGS:
                return opts, warnings, f"Unknown option: -{f}", None, []
            opts.add(f)
            j += 1
        i += 1
    if i >= len(argv) or argv[i] == "-":
        return opts, warnings, "stdin", "-", argv[i + 1 :]
    return opts, warnings, "file", argv[i], argv[i + 1 :]


def has_module(name):
    """Whether `name` can be imported (the page installs pytest's wheels when it could fetch them)."""
    import importlib.util

    return importlib.util.find_spec(name) is not None


def refuse_network():
    """Emscripten's sockets answer connect() at once and only then try a WebSocket, which the
    frame's policy blocks: the program would be told it connected. Say what is true instead."""
    import errno
    import socket

    def refuse(self, *args, **kwargs):
        raise OSError(errno.ENETUNREACH, "Network is unreachable: the Python sandbox has no network")

    for name in ("connect", "connect_ex", "sendto"):
        setattr(socket.socket, name, refuse)


def report(exc):
    """Prints `exc` as CPython does at exit, without the frames of this file; returns the exit code."""
    import traceback

    if isinstance(exc, SystemExit):
        code = exc.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code & 0xFF
        print(code, file=sys.stderr)
        return 1
    tb = exc.__traceback__
    # This file's frames and runpy's come before the program's own: CPython shows neither for a script.
    while tb is not None and (
        tb.tb_frame.f_code.co_filename == __file__ or tb.tb_frame.f_code.co_filename.endswith("runpy.py")
    ):
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb)
    return 1


def main(argv, stdin_has_data, env):
    os.environ.clear()
    os.environ.update(env)
    opts, warnings, what, target, rest = parse(argv)
    if what == "version":
        print("Python " + sys.version.split()[0])
        return 0
    if what == "help":
        print(USAGE + "\n(Python in the browser, Pyodide: -c, -m, a file or -, and -I -E -s -S -P -B -u -q -O -W -X)")
        return 0
    if what not in ("c", "m", "file", "stdin"):
        print(what, file=sys.stderr)
        print(USAGE + "\nTry `python -h' for more information.", file=sys.stderr)
        return 2
    if what == "m" and target == "pytest" and not has_module("pytest"):
        print(NO_PYTEST, file=sys.stderr)
        return 1
    if what == "stdin" and not stdin_has_data:
        print(
            "python3 without a program reads one from stdin, and nothing was piped in: "
            "there is no interactive prompt here. Run a script (python3 file.py) or a command (python3 -c '…').",
            file=sys.stderr,
        )
        return 2
    if warnings:
        import warnings as warnings_module

        sys.warnoptions.extend(warnings)
        try:
            warnings_module._processoptions(warnings)
        except Exception as exc:  # noqa: BLE001 - CPython also ignores a bad -W with a message
            print(f"Invalid -W option ignored: {exc}", file=sys.stderr)
    safe = "I" in opts or "P" in opts
    refuse_network()
    import runpy

    try:
        if what == "c":
            sys.argv = ["-c", *rest]
            if not safe:
                sys.path.insert(0, "")
            main_globals = {"__name__": "__main__", "__builtins__": __builtins__}
            exec(compile(target, "<string>", "exec"), main_globals)
        elif what == "m":
            sys.argv = [target, *rest]
            if not safe:
                sys.path.insert(0, os.getcwd())
            runpy._run_module_as_main(target, alter_argv=True)
        elif what == "stdin":
            sys.argv = ["-", *rest]
            if not safe:
                sys.path.insert(0, "")
            source = sys.stdin.read()
            exec(compile(source, "<stdin>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
        else:
            path = target
            if not os.path.exists(path):
                print(
                    f"python3: can't open file {os.path.abspath(path)!r}: [Errno 2] No such file or directory",
                    file=sys.stderr,
                )
                return 2
            sys.argv = [path, *rest]
            if not safe:
                sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            runpy.run_path(path, run_name="__main__")
        code = 0
    except BaseException as exc:  # noqa: BLE001 - the program's own exit, as CPython's main loop reports it
        code = report(exc)
    try:
        import atexit

        atexit._run_exitfuncs()
    except BaseException as exc:  # noqa: BLE001
        code = report(exc) or code
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed stream has nothing left to write
            pass
    return code
