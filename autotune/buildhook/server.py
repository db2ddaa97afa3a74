"""The build hook's resident process: ``python -m autotune.buildhook.server SOCKET``.

Started by the wrapper (``server_client.start_server``) when the ``server``
setting is on and none listens. It imports what deciding a source needs once,
then forks a child per request: the child takes the compile's working
directory and environment, decides as ``lookup`` does in-process (writing the
same cache files), replies and exits, so no request sees another's state. One
server per socket (a lock beside it); it exits after ``AUTOTUNE_SERVER_IDLE``
seconds without a request (default 600) and removes its socket.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import socket
import sys

from autotune.buildhook.server_client import STOP, decode, encode, read_all

IDLE_S = 600.0


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m autotune.buildhook.server SOCKET", file=sys.stderr)
        return 2
    path = argv[0]
    lock = os.open(path + ".lock", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another server for this socket is starting or running
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)  # first: a server that cannot listen fails before importing
        os.chmod(path, 0o600)
        listener.listen(64)  # compiles that connect while it imports wait in the backlog
        _preload()
        listener.settimeout(_idle_seconds())
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reaped by the kernel
        _serve(listener)
    finally:
        listener.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
    return 0


def _idle_seconds() -> float:
    try:
        return max(1.0, float(os.environ.get("AUTOTUNE_SERVER_IDLE", IDLE_S)))
    except ValueError:
        return IDLE_S


def _preload() -> None:
    """What every request needs, imported once (numpy first, its BLAS on one thread:
    a fork of a process running BLAS threads would hold locks no thread releases)."""
    from autotune.numpyload import load_numpy_single_threaded

    load_numpy_single_threaded()
    import autotune.analysis
    import autotune.buildhook.lookup
    import autotune.buildhook.rank
    import autotune.measure.store
    import autotune.tuning.modelchoice
    import autotune.tuning.ranking
    import autotune.variants.apply
    import autotune.variants.space  # noqa: F401
    from autotune.variants.templating import environment

    for name in ("directive.j2", "clauses.j2"):  # what a tuned source renders (it
        environment().get_template(name)  # includes the second): compiled once, here


def _serve(listener: socket.socket) -> None:
    while True:
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            return
        try:
            conn.settimeout(60.0)
            body = read_all(conn)
        except OSError:
            conn.close()
            continue
        if decode(body) == STOP:
            with contextlib.suppress(OSError):
                conn.sendall(encode({"stopped": True}))
            conn.close()
            return
        pid = os.fork()
        if pid == 0:  # the child: one request, then gone
            listener.close()
            code = 0
            try:
                _answer(conn, body)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        conn.close()


def _answer(conn: socket.socket, body: bytes) -> None:
    conn.settimeout(None)
    try:
        req = decode(body)
        if req is None:
            raise ValueError("not a request")
        os.chdir(req["cwd"])
        os.environ.clear()
        os.environ.update(req["env"])
        reply = decide_request(req)
    except Exception as exc:  # the wrapper then decides in-process
        reply = {"error": f"{type(exc).__name__}: {exc}"}
    conn.sendall(encode(reply))
    conn.close()


def decide_request(req: dict) -> dict:
    """``lookup.decide_slow`` for the request's source, as the wrapper would run it."""
    from autotune.buildhook.cmdline import parse_command
    from autotune.buildhook.config import db_path, load_config, log_path
    from autotune.buildhook.lookup import Context, HookFailure, decide_slow, save_counts
    from autotune.buildhook.report import SourceDecision

    cfg = load_config()
    cmd = parse_command(req["argv"])
    src = cmd.sources[req["source"]]
    ctx = Context(cfg, db_path(cfg), cmd.compiler, log_path(cfg))
    dec = SourceDecision.from_dict(req["decision"])
    data = req["data"]
    try:
        dec, tuned_key, text = decide_slow(cmd, src, ctx, dec, data)
    except HookFailure as exc:
        return {"failure": str(exc), "warn": exc.warn}
    finally:
        save_counts()  # this child leaves by _exit
        ctx.close()
    return {"decision": dec.to_dict(), "tuned_key": tuned_key, "text": text, "served": True}


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
