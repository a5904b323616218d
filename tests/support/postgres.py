"""A real PostgreSQL server for a test: Debian's (``/usr/lib/postgresql/*/bin``), made with
``initdb`` in a temporary folder and started with ``pg_ctl`` on a free local port, as the
current user (as root: as the ``postgres`` user, since PostgreSQL refuses to run as root).
Where none can run, the test is skipped saying why (``.ci/run`` installs the package).
``Serve``: a ``speciation serve`` process of its own on such a database (several of them
share its games)."""
from __future__ import annotations

import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_postgres() -> Iterator[str]:
    """A PostgreSQL server for the length of the block; its SQLAlchemy URL."""
    where = _bin()
    if where is None:
        pytest.skip("no PostgreSQL here (Debian: apt-get install -y postgresql; .ci/run installs it as root)")
    prefix: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="speciation-pg-"))
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL as")
        shutil.chown(folder, "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()
    try:
        subprocess.run([*prefix, str(where / "initdb"), "-D", str(data), "-A", "trust", "-U", "speciation"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([*prefix, str(where / "pg_ctl"), "-D", str(data), "-l", str(folder / "log"), "-w", "-t", "60",
                        "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True, timeout=120)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as error:
        shutil.rmtree(folder, ignore_errors=True)
        detail = getattr(error, "stderr", b"") or b""
        pytest.skip(f"PostgreSQL could not start here: {error} {detail.decode(errors='replace')[:300]}")
    try:
        yield f"postgresql+psycopg://speciation@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(where / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


class Serve:
    """``speciation serve`` in a process of its own, on *database*; its address is ``url``."""

    def __init__(self, database: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "speciation", "serve", "--port", "0", "--no-browser", "--agent-delay", "0",
             "--database", database], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert "the table is open at" in line, line + self.process.stdout.read()
        self.url = line.split(" at ", 1)[1].split()[0].rstrip("/")

    def post(self, path: str, body: dict) -> dict:
        req = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
