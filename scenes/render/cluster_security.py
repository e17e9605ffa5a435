"""What ``--scheduler`` may connect to, with which certificates, and what may be loaded back.

Why its own module: these rules are checked before anything is rendered and without importing
Dask (an up-to-date clip never reaches the cluster), and they are the cluster's whole trust
boundary, so they stay in one place that is short enough to read.

- **Where.** ``tls://HOST:PORT`` by default: mutual TLS, the scheduler proving it holds a
  certificate signed by the cluster's CA (``render cluster-certs``) and this machine proving the
  same, so a peer without one is refused by the TLS handshake, before any byte it sends is
  decoded. Plain ``tcp://`` only to this machine (127.0.0.0/8, ::1, localhost), or with
  ``--insecure-scheduler``. Any other scheme is refused with what to write instead.
- **What comes back.** Dask decodes what a peer sends with pickle, which can call any function.
  While a cluster is open, :class:`UnpicklingGuard` refuses every global a pickle names but the
  plain data types below (a Python audit hook on ``pickle.find_class``), whatever the transport:
  a pickle that names no callable cannot run code, and the tasks' replies are plain data.
"""

from __future__ import annotations

import ipaddress
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEDULER_SECONDS = 20.0
"""How long a peer may leave the render waiting (to connect, to answer, to cancel) by default."""
TIMEOUT_VARIABLE = "GRADREEL_SCHEDULER_TIMEOUT"
"""The environment variable that sets that bound instead (``--scheduler-timeout`` wins)."""
CERTS_VARIABLE = "GRADREEL_CLUSTER_CERTS"
"""The environment variable naming the certificates' folder (``--certs`` wins)."""
CERT_FILES = ("ca.pem", "cert.pem", "key.pem")
"""The cluster's CA certificate, and the certificate and key every member (scheduler, workers,
this machine) presents; the CA's own key is not kept, so no one can sign another member."""
LOOPBACK_NAMES = ("localhost",)
PLAIN_DATA = frozenset(("builtins", name) for name in ("str", "tuple", "list", "dict", "set", "frozenset",
                                                       "int", "float", "bool"))
"""The globals a pickle may name while a cluster is open: types of plain data, which Dask names
when it tells the client a result's type; constructing them runs no code of the sender's (not
``bytes``, whose ``bytes(n)`` would allocate n bytes)."""


class ClusterError(Exception):
    """The cluster cannot render: one line for the user, exit status 2, nothing in out/ changed."""


@dataclass(frozen=True)
class Peer:
    """A checked ``--scheduler`` address: the scheme, and the certificates' folder for tls://."""

    address: str
    tls: bool
    certs: Path | None

    def files(self) -> dict[str, str]:
        """The certificate files as Dask's ``Security`` names them (tls:// only)."""
        assert self.certs is not None
        ca, cert, key = (str(self.certs / name) for name in CERT_FILES)
        return {"tls_ca_file": ca, "tls_client_cert": cert, "tls_client_key": key}


def default_certs() -> Path:
    """Where ``render cluster-certs`` writes and ``--scheduler tls://`` looks, without a folder:
    $GRADREEL_CLUSTER_CERTS, else $XDG_CONFIG_HOME/gradreel/cluster (~/.config/gradreel/cluster)."""
    if os.environ.get(CERTS_VARIABLE):
        return Path(os.environ[CERTS_VARIABLE]).expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "gradreel" / "cluster"


def default_timeout() -> float:
    """$GRADREEL_SCHEDULER_TIMEOUT seconds if set (and valid), else SCHEDULER_SECONDS."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return SCHEDULER_SECONDS
    try:
        return parse_timeout(text)
    except ValueError as exc:
        raise ClusterError(f"${TIMEOUT_VARIABLE}: {exc}") from None


def parse_timeout(text: str) -> float:
    """Seconds from 0.5 to 3600 (a ValueError naming the rule otherwise)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0.5 <= seconds <= 3600:  # also refuses nan and inf
        raise ValueError(f"{text!r} is not a number of seconds from 0.5 to 3600")
    return seconds


def check_peer(text: str, certs: str | None = None, insecure: bool = False) -> Peer:
    """The ``--scheduler`` address ``text`` checked against the rules above, or a ClusterError
    saying what to write instead. Reads the certificates' folder only for tls://."""
    address = text.strip()
    if not address:
        raise ClusterError("--scheduler needs an address: tls://HOST:PORT (or tcp://127.0.0.1:PORT for a "
                           "scheduler on this machine)")
    if any(not c.isprintable() or c.isspace() for c in address):
        raise ClusterError(f"--scheduler {address!r}: an address has no spaces or control characters")
    scheme, sep, location = address.partition("://")
    if not sep:
        raise ClusterError(f"--scheduler {address}: say how to connect: tls://{address} (with the cluster's "
                           "certificates, see `render cluster-certs`)")
    scheme = scheme.lower()
    if scheme not in ("tls", "tcp"):
        raise ClusterError(f"--scheduler {address}: gradreel connects over tls:// (or tcp:// to this machine), "
                           f"not {scheme}://; start the scheduler with --protocol tls")
    host = _host(address, location)
    if scheme == "tcp":
        if certs is not None:
            raise ClusterError(f"--certs is for a tls:// scheduler; {address} is plain TCP: write tls://{location}")
        if not insecure and not _loopback(host):
            raise ClusterError(f"--scheduler {address}: plain TCP to another machine lets whatever listens there "
                               f"run code in render; use tls://{location} with the cluster's certificates "
                               "(`render cluster-certs`), or add --insecure-scheduler on a network you trust")
        return Peer(f"tcp://{location}", False, None)
    folder = Path(certs).expanduser() if certs is not None else default_certs()
    for name in CERT_FILES:
        if not (folder / name).is_file():
            raise ClusterError(f"--scheduler {address}: tls:// needs the cluster's certificates, and "
                               f"{folder / name} is not there; make them with `render cluster-certs "
                               f"{folder}`, copy the folder to every machine, or give another with --certs DIR")
    return Peer(f"tls://{location}", True, folder)


def _host(address: str, location: str) -> str:
    """The host of ``HOST:PORT`` or ``[V6]:PORT``, the port checked."""
    if location.startswith("["):
        host, bracket, rest = location[1:].partition("]")
        port = rest[1:] if bracket and rest.startswith(":") else ""
    else:
        host, _, port = location.rpartition(":")
    if not host or not port.isdigit() or not 1 <= int(port) <= 65535 or "/" in location:
        raise ClusterError(f"--scheduler {address}: expected SCHEME://HOST:PORT with a port from 1 to 65535, "
                           "e.g. tls://192.0.2.7:8786")
    return host


def _loopback(host: str) -> bool:
    """Whether ``host`` is this machine: 127.0.0.0/8, ::1 or localhost (no name is looked up)."""
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Unloadable(Exception):
    """A peer sent a pickle naming a callable: refused unloaded."""


class UnpicklingGuard:
    """While open (``with guard:``), every ``pickle.find_class`` in this process outside
    PLAIN_DATA raises :class:`Unloadable`, and is remembered, so that a refusal deep inside
    Dask's reading thread still ends the render (``refusal()``). The audit hook is added once
    per process (hooks cannot be removed) and does nothing while no guard is open."""

    _hooked = False
    _open = 0
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.refused: list[str] = []

    def __enter__(self) -> "UnpicklingGuard":
        with UnpicklingGuard._lock:
            if not UnpicklingGuard._hooked:
                sys.addaudithook(UnpicklingGuard._hook)
                UnpicklingGuard._hooked = True
            UnpicklingGuard._open += 1
            _guards.append(self)
        return self

    def __exit__(self, *exc: Any) -> None:
        with UnpicklingGuard._lock:
            UnpicklingGuard._open -= 1
            _guards.remove(self)

    @staticmethod
    def _hook(event: str, args: tuple) -> None:
        if event != "pickle.find_class" or not UnpicklingGuard._open:
            return
        if (args[0], args[1]) in PLAIN_DATA:
            return
        what = "a pickled " + printable(f"{args[0]}.{args[1]}")
        for guard in list(_guards):
            guard.refused.append(what)
        raise Unloadable(what)

    def refusal(self) -> str | None:
        """What was refused since the guard opened (the first: "a pickled MODULE.NAME"), or None."""
        return self.refused[0] if self.refused else None

    def forget(self) -> bool:
        """Whether anything was refused; forgotten, as the caller has dealt with it."""
        had = bool(self.refused)
        self.refused.clear()
        return had


_guards: list[UnpicklingGuard] = []


def printable(text: str, limit: int = 160) -> str:
    """``text`` on one line, control characters escaped, at most ``limit`` characters: a peer's
    words may go into a message, but never move the cursor or fill the screen."""
    flat = " ".join(str(text).split())
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in flat)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def said(exc: BaseException) -> str:
    """An exception from a peer's side as ``Type: text``, its first line only (Dask's error
    messages go on with a traceback), printable."""
    text = printable(str(exc).strip().split("\n", 1)[0])
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
