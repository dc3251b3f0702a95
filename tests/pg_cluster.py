"""A throwaway PostgreSQL cluster for tests: ``initdb`` in a temporary folder, a free local
port, trust authentication, stopped and removed afterwards.

The binaries are looked up on the PATH, then in ``/usr/lib/postgresql/<version>/bin``. As
root they run as the ``postgres`` user (``runuser -u postgres --``), which owns the folder;
otherwise as the current user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BINARIES = ("initdb", "pg_ctl", "postgres")
VERSIONS = ("15", "16", "17", "14")
USER = "postgres"


def find_binaries() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres, or None."""
    on_path = [shutil.which(name) for name in BINARIES]
    if all(on_path):
        return Path(on_path[0]).parent  # type: ignore[arg-type]
    for version in VERSIONS:
        folder = Path(f"/usr/lib/postgresql/{version}/bin")
        if all((folder / name).is_file() for name in BINARIES):
            return folder
    return None


def why_unavailable() -> str | None:
    """Why no cluster can be started here (None: it can)."""
    if find_binaries() is None:
        return (
            "PostgreSQL is not installed (initdb, pg_ctl, postgres neither on the PATH nor in "
            "/usr/lib/postgresql/*/bin): the PostgreSQL tests are skipped"
        )
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            return "running as root without runuser: cannot start PostgreSQL as its own user"
        try:
            pwd.getpwnam(USER)
        except KeyError:
            return f"running as root without a {USER!r} user to start PostgreSQL as"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class Cluster:
    """A running cluster: where to connect, and the variables LightRAG reads to do so."""

    host: str
    port: int
    user: str
    database: str

    def lightrag_env(self, workspace: str = "") -> dict[str, str]:
        """The POSTGRES_* variables of LightRAG's PostgreSQL storages for this cluster."""
        env = {
            "POSTGRES_HOST": self.host,
            "POSTGRES_PORT": str(self.port),
            "POSTGRES_USER": self.user,
            "POSTGRES_PASSWORD": "trust-auth-ignores-it",
            "POSTGRES_DATABASE": self.database,
            "POSTGRES_MAX_CONNECTIONS": "8",
        }
        if workspace:
            env["POSTGRES_WORKSPACE"] = workspace
        return env


@contextmanager
def postgres_cluster() -> Iterator[Cluster]:
    """Start a cluster for the block; raises RuntimeError (with the server log) on failure."""
    binaries = find_binaries()
    assert binaries is not None, why_unavailable()
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", USER, "--"] if as_root else []
    # Not under pytest's tmp_path: its parent is private to root, and postgres must reach it.
    folder = Path(tempfile.mkdtemp(prefix="pchunk-pg-", dir="/tmp"))
    data, log = folder / "data", folder / "server.log"
    if as_root:
        shutil.chown(folder, USER, USER)
    user = USER if as_root else os.environ.get("USER") or USER
    port = _free_port()

    def run(*command: str) -> None:
        done = subprocess.run(
            [*prefix, *command], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            server_log = log.read_text(errors="replace") if log.exists() else ""
            raise RuntimeError(f"{command[0]} failed: {done.stderr or done.stdout}\n{server_log}")

    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    try:
        run(str(binaries / "initdb"), "-D", str(data), "-U", user, "-A", "trust", "-E", "UTF8")
        run(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
        try:
            yield Cluster("127.0.0.1", port, user, "postgres")
        finally:
            run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
