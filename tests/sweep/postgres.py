"""A throwaway PostgreSQL server for the tests: initdb and pg_ctl in a temporary folder, on a free
localhost port, trust authentication, stopped and removed afterwards. As root the server runs as the
``postgres`` user (PostgreSQL refuses to run as root). The binaries come from the OS package (Debian:
``apt-get install postgresql``, which puts them in /usr/lib/postgresql/VERSION/bin)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


def bindir() -> Path | None:
    """The folder of initdb and pg_ctl, or None when PostgreSQL is not installed."""
    for candidate in [shutil.which("initdb"), *sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)]:
        if candidate and Path(candidate).is_file():
            return Path(os.path.realpath(candidate)).parent
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server() -> Iterator[str]:
    """Yields the URL (``postgresql+psycopg://postgres@127.0.0.1:PORT/postgres``) of a running server."""
    bins = bindir()
    assert bins is not None, "PostgreSQL is not installed"
    as_root = os.geteuid() == 0
    user = pwd.getpwnam("postgres") if as_root else None
    root = Path(tempfile.mkdtemp(prefix="osrs-rl-pg-"))
    data = root / "data"
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)

    def run(*args: str) -> None:
        cmd = [str(bins / args[0]), *args[1:]]
        if user is not None:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    port = _free_port()
    run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
    run("pg_ctl", "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60", "-o",
        f"-p {port} -c listen_addresses=127.0.0.1 -k {root} -c fsync=off", "start")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        run("pg_ctl", "-D", str(data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(root, ignore_errors=True)
