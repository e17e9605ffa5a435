"""Connecting to a Dask scheduler for ``--scheduler``: the handshake within a time bound, the
first worker waited for, and one line saying why a peer could not be reached (no answer, a TLS
certificate not ours, a peer that is no scheduler, or a reply that is not plain data).

The connected :class:`scenes.render.cluster.Cluster` does the rest; this module only opens and
closes it, so a failure to connect is said the same way wherever it happens.
"""

from __future__ import annotations

import logging
import ssl
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from scenes.render.cluster import STOP_SECONDS, Cluster, bounded
from scenes.render.cluster_security import ClusterError, Peer, UnpicklingGuard, said

WAIT_WORKER_SECONDS = 5.0
"""How long to wait for a first worker once connected, before saying there is none."""
DESERIALIZERS = ["msgpack", "error"]
"""How the scheduler and workers must encode their replies to this client: msgpack (plain data)
and Dask's error text; never pickle, nor Dask's own family (whose header is a pickle)."""


@contextmanager
def cluster(peer: Peer, seconds: float, log: Callable[[str], None] = lambda s: print(s, file=sys.stderr)
            ) -> Iterator[Cluster]:
    """Connect to the scheduler ``peer`` names (a ClusterError when it has not completed Dask's
    handshake within ``seconds``, or sent anything but plain data) and check its workers' code;
    when the block ends in an error or Ctrl-C, the tasks handed out are cancelled, and the
    client is closed either way, each for at most STOP_SECONDS."""
    from distributed import Client
    from distributed.security import Security

    for name in ["distributed", "tornado", *(n for n in list(logging.root.manager.loggerDict)
                                             if n.startswith(("distributed.", "tornado.")))]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)  # what went wrong is said once, as one line
    security = Security(require_encryption=True, **peer.files()) if peer.tls else None
    with UnpicklingGuard() as guard:
        def connect() -> Any:
            return Client(peer.address, timeout=seconds, set_as_default=False, security=security,
                          deserializers=DESERIALIZERS)

        try:
            client = bounded(connect, seconds + 1, lambda: _unreachable(peer, guard, f"no answer in {seconds:g} s"))
        except ClusterError:
            raise
        except Exception as exc:  # whatever a peer that is no scheduler makes Dask raise
            raise _unreachable(peer, guard, said(exc), _tls_refused(exc)) from None
        farm = Cluster(client, peer.address, log, seconds, guard)
        try:
            try:
                farm.ask(lambda: client.wait_for_workers(1, timeout=min(WAIT_WORKER_SECONDS, seconds)))
            except ClusterError as exc:
                if "stopped answering" in str(exc):
                    raise
            except (OSError, TimeoutError):
                pass  # workers() names what is missing
            farm.log(f"render: {len(farm.workers())} worker(s) of the Dask scheduler at {peer.address}")
            yield farm
        except BaseException:
            farm.cancel()
            raise
        finally:
            try:
                bounded(lambda: client.close(timeout=2), STOP_SECONDS, farm.silent)
            except Exception:  # the scheduler gone or frozen: nothing left to close
                pass


def _unreachable(peer: Peer, guard: UnpicklingGuard, why: str, tls_refused: bool = False) -> ClusterError:
    """The connection to ``peer`` failed for ``why`` (Dask's words, or what the guard refused)."""
    if guard.refusal() is not None:
        why = f"it sent {guard.refusal()}, which gradreel does not load"
    elif tls_refused:
        why = (f"the TLS handshake failed: the peer holds no certificate of the CA in {peer.certs}, "
               f"or it is not a TLS scheduler; {why}")
    hint = "" if peer.tls else "; is it a Dask scheduler?"
    return ClusterError(f"cannot reach the Dask scheduler at {peer.address} ({why}){hint}")


def _tls_refused(exc: BaseException) -> bool:
    """Whether ``exc``, or what caused it, is the TLS handshake failing (a certificate not ours,
    or a peer that does not speak TLS): Dask gives up at once on those, saying little."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if (isinstance(cause, ssl.SSLError) or type(cause).__name__ == "FatalCommClosedError"
                or "SSL" in str(cause)):  # tornado: a peer that speaks before the TLS handshake
            return True
        cause = cause.__cause__ or cause.__context__
    return False
