"""A throwaway PostgreSQL server for the tests: Debian's server binaries (installed by
tools/system-packages), a new cluster in a temporary folder, a Unix socket only (no port
opened), trust authentication, stopped when the session ends. Run as root (CI), the server runs
as the `postgres` user (initdb refuses root).

A run that is killed cannot stop its server: each server's folder names the process that owns
it (its pid and start time), and every new server first stops and removes those whose owner is
gone. A run ended by SIGTERM, SIGHUP or SIGINT stops its own (stop_with_the_run)."""

from __future__ import annotations

import atexit
import contextlib
import getpass
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

SUPERUSER = "tabletop"
PORT = 5432  # only names the socket file: no TCP port is opened


def server_binaries() -> Path:
    """The newest installed server's bin folder; a clear failure when there is none."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).parent
    raise RuntimeError("PostgreSQL's server is not installed: run `bash tools/system-packages` (Debian package postgresql)")


PREFIX = "pg-test-"
OWNER = "owner"  # in a server's folder: "<pid> <start time>" of the process that started it


def _identity(pid: int) -> str:
    """A process's pid and start time (a pid alone may be reused by another process)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return ""
    return f"{pid} {fields[19]}"  # field 22 of stat, counted after the command's parenthesis


def sweep() -> list[Path]:
    """Stop and remove every test server whose owner process is gone; the folders removed."""
    removed = []
    for folder in Path(tempfile.gettempdir()).glob(f"{PREFIX}*"):
        try:
            owner = (folder / OWNER).read_text().strip()
        except OSError:
            continue  # being made (or not ours): left alone
        pid = int(owner.split()[0]) if owner.split() and owner.split()[0].isdigit() else 0
        if pid and _identity(pid) == owner:
            continue
        postmaster = folder / "data" / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):  # no server running there
            os.kill(int(postmaster.read_text().split()[0]), signal.SIGQUIT)  # postgres: immediate shutdown
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def _interrupted(signum, frame):
    raise KeyboardInterrupt  # pytest tears its fixtures down, then exits


def stop_with_the_run(server: Server) -> None:
    """Stop the server at interpreter exit and when the run is ended by SIGTERM, SIGHUP or
    SIGINT (a timeout's kill): each becomes KeyboardInterrupt, whose unwinding stops it too."""
    atexit.register(server.stop)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) in (signal.SIG_DFL, None):
            signal.signal(sig, _interrupted)


class Server:
    def __init__(self) -> None:
        self.bin = server_binaries()
        sweep()
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX))
        (self.folder / OWNER).write_text(_identity(os.getpid()))
        self.data = self.folder / "data"
        self.socket = self.folder
        self.user = "postgres" if os.geteuid() == 0 else getpass.getuser()
        if os.geteuid() == 0:
            entry = pwd.getpwnam(self.user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        self.started = False

    def _run(self, *args: str) -> None:
        subprocess.run(
            [str(self.bin / args[0]), *args[1:]],
            check=True,
            capture_output=True,
            user=self.user if os.geteuid() == 0 else None,
            cwd=self.folder,
        )

    def start(self, durable: bool = False) -> Server:
        """`durable`: fsync on, as a real server runs (benchmarks); tests skip it for speed."""
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "--encoding=UTF8", "--no-sync")
        self.options = f"-k {self.socket} -c listen_addresses='' -p {PORT} -c max_connections=200"
        if not durable:
            self.options += " -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-o", self.options, "-l", str(self.folder / "server.log"), "-w", "start")
        self.started = True
        return self

    def restart(self, down_for: float = 0.0) -> None:
        """Stopped at once (every session cut, as a crash or a failover would) and started again,
        after `down_for` seconds of outage."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        time.sleep(down_for)
        self._run("pg_ctl", "-D", str(self.data), "-o", self.options, "-l", str(self.folder / "server.log"), "-w", "start")

    def stop(self) -> None:
        if self.started:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            self.started = False
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str = "postgres", user: str = SUPERUSER) -> str:
        return f"postgresql://{user}@/{database}?host={self.socket}&port={PORT}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"create database {name}")
        return self.url(name)

    def disconnect_all(self, url: str) -> None:
        """Ends every session on the URL's database, as a server restart would."""
        import psycopg

        database = url.split("/")[-1].split("?")[0]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(
                "select pg_terminate_backend(pid) from pg_stat_activity where datname = %s and pid <> pg_backend_pid()",
                (database,),
            )
