"""Ask the build hook's resident process to decide a source (``server = true``).

A compile the decision cache cannot answer needs the parser, numpy, islpy and
the models: importing them is about 0.25 s of every such compile, more than
the analysis of a typical source. With the server setting on, the wrapper
hands that work to a resident process (``server.py``) that imported them once
and forks a child per request; the answer is what ``lookup`` would have
computed itself, and every cache file is written as it would have been. The
first compile that finds no server starts one and decides in-process; any
failure to reach the server (or a reply it cannot read) is the same: the
compile goes on in-process. Standard library only: this runs in the launcher.

One server per user, Python, installed code and cache directory: its socket
lives in a private ``autotune-<uid>`` directory under the temporary directory,
named by a digest of those, so an upgrade or an edit of autotune's sources
starts a new one rather than asking one that runs the old code.
"""

from __future__ import annotations

import _socket
import marshal
import os
import stat
import sys
import time

from autotune.buildhook.keys import sha256

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLY_TIMEOUT_S = 600.0  # a large file's analysis takes seconds, not minutes


MAX_SOCKET_PATH = 100  # sockaddr_un holds 108 bytes


def socket_path(cache_root: str) -> str | None:
    """Where this user's server for this code and cache listens (under ``/tmp`` when
    the temporary directory's path is too long for a socket); None when the private
    directory is not safely ours (owned by another user, open to others)."""
    name = f"{code_stamp(cache_root)}.sock"
    base = temp_root()
    if len(os.path.join(base, f"autotune-{os.getuid()}", name)) > MAX_SOCKET_PATH:
        base = "/tmp"
    folder = os.path.join(base, f"autotune-{os.getuid()}")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None
    return os.path.join(folder, name)


def temp_root() -> str:
    """The temporary directory as the environment names it (``tempfile``'s order)."""
    for var in ("TMPDIR", "TEMP", "TMP"):
        value = os.environ.get(var)
        if value and os.path.isdir(value):
            return value
    return "/tmp"


def code_stamp(cache_root: str) -> str:
    """A digest of the Python, the package's files (names, sizes, times) and the cache."""
    h = sha256(f"{sys.executable}\0{os.path.abspath(cache_root)}".encode())
    for folder, dirs, files in os.walk(PACKAGE):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".py", ".j2", ".json")):
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                h.update(f"{folder}/{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:24]


def request(argv: list[str], source: int, decision: dict, data: bytes) -> dict:
    """What the server needs to decide source ``source`` of the command ``argv``."""
    return {
        "argv": argv,
        "source": source,
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "decision": decision,
        "data": data,
    }


def encode(message: dict) -> bytes:
    return marshal.dumps(message)


def decode(body: bytes) -> dict | None:
    """A message from the other end; None when it is not one (damaged, another format)."""
    try:
        message = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return None
    return message if isinstance(message, dict) else None


STOP = {"stop": True}


def _connected(path: str, timeout: float) -> _socket.socket:
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.settimeout(timeout)
        conn.connect(path)
    except OSError:
        conn.close()
        raise
    return conn


def _exchange(conn: _socket.socket, message: dict) -> dict | None:
    conn.sendall(encode(message))
    conn.shutdown(_socket.SHUT_WR)
    return decode(read_all(conn))


def ask(path: str, req: dict) -> dict | None:
    """The server's reply; None (after starting a server if none listens) otherwise."""
    try:
        conn = _connected(path, REPLY_TIMEOUT_S)
    except (FileNotFoundError, ConnectionRefusedError):
        _start_once(path)
        return None
    except OSError:
        return None
    try:
        reply = _exchange(conn, req)
    except OSError:
        return None
    finally:
        conn.close()
    return reply if reply is not None and "error" not in reply else None


def read_all(conn: _socket.socket) -> bytes:
    """Everything the other side sends before it shuts its end (both sides use it)."""
    chunks = []
    while True:
        chunk = conn.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def status(path: str | None) -> str:
    """One line for ``autotune-cc --server-status``."""
    if path is None:
        return "no server: the private socket directory is not safely this user's"
    state = "running" if _answers(path) else "not running"
    return f"{path}: {state}"


def stop(path: str | None) -> bool:
    """Ask the server at ``path`` to leave now; whether one was running."""
    if path is None or not _answers(path):
        return False
    try:
        conn = _connected(path, 60.0)  # a server still importing answers once it has
    except OSError:
        return True
    try:
        _exchange(conn, STOP)
    except OSError:
        pass
    finally:
        conn.close()
    return True


def _answers(path: str) -> bool:
    try:
        _connected(path, 2.0).close()
        return True
    except OSError:
        return False


RESTART_AFTER_S = 30.0  # a server that failed to start is not started again sooner


def _start_once(path: str) -> None:
    """Start a server unless a compile tried in the last ``RESTART_AFTER_S`` seconds:
    where one cannot run (no room for its socket, a crash at import), a build would
    otherwise start one per compile."""
    stamp = path + ".started"
    try:
        if time.time() - os.stat(stamp).st_mtime < RESTART_AFTER_S:
            return
    except OSError:
        pass
    try:
        with open(stamp, "w"):
            pass
    except OSError:
        return
    start_server(path)


def start_server(path: str) -> None:
    """Start a server for ``path`` in its own session, holding none of the build's files
    (``make`` waits for every process that holds its pipes)."""
    import subprocess

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (os.path.dirname(PACKAGE), env.get("PYTHONPATH", "")) if p
    )
    try:
        subprocess.Popen(
            [sys.executable, "-m", "autotune.buildhook.server", path],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,
            cwd="/",
            env=env,
        )
    except (OSError, ValueError):
        pass
