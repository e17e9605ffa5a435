"""``render cluster-certs [DIR]``: the certificates ``render --scheduler tls://...`` connects with.

Why a command: mutual TLS is what keeps a stranger's machine from answering as the scheduler,
and it should take one line to set up (see README.md, 'Rendering on several machines').
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add ``cluster-certs`` to ``render``'s subparsers."""
    from scenes.render.cluster_security import CERTS_VARIABLE

    p = subparsers.add_parser("cluster-certs", help="make the certificates of a Dask cluster for --scheduler tls://")
    p.add_argument("folder", nargs="?", default=None, metavar="DIR",
                   help=f"where to write ca.pem, cert.pem and key.pem (default: ${CERTS_VARIABLE}, else "
                        "~/.config/gradreel/cluster, where --scheduler looks); copy DIR to every machine of the cluster")
    p.set_defaults(func=cmd_cluster_certs, run=cmd_cluster_certs)


def cmd_cluster_certs(args: argparse.Namespace) -> int:
    """Write the certificates; their paths on stdout, how to start the cluster with them on stderr."""
    from scenes.render.cluster_certs import make_certs
    from scenes.render.cluster_security import ClusterError, default_certs

    folder = Path(args.folder).expanduser() if args.folder else default_certs()
    try:
        ca, cert, key = make_certs(folder)
    except ClusterError as exc:
        print(f"render: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"render: cannot write the certificates into {folder}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    for path in (ca, cert, key):
        print(path)
    flags = f"--tls-ca-file {ca} --tls-cert {cert} --tls-key {key}"
    print(f"render: copy {folder} to every machine of the cluster, then:\n"
          f"  dask scheduler --protocol tls --port 8786 {flags}\n"
          f"  dask worker tls://SCHEDULER:8786 --nthreads 1 {flags}\n"
          f"  render all --scheduler tls://SCHEDULER:8786"
          + ("" if args.folder is None else f" --certs {folder}"), file=sys.stderr)
    return 0
