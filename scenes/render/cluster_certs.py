"""``render cluster-certs DIR``: the certificates of a gradreel Dask cluster, for mutual TLS.

Why the ``cryptography`` package: it is what Dask itself makes certificates with
(``Security.temporary()``), and X.509 is no format to write by hand. What is made: a CA that
lives only while the command runs (its key is never written, so no one can sign another
member later), and one certificate and key signed by it that every member presents: the
scheduler, the workers and the machine that renders. Copy the folder to every machine; whoever
holds ``key.pem`` is a member, so it is written readable by its owner only.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from scenes.atomic import write_atomic
from scenes.render.cluster_security import CERT_FILES, ClusterError

VALID_DAYS = 1826
"""How long the certificates are valid: five years; run the command again to renew them."""


def make_certs(folder: Path) -> list[Path]:
    """Write ca.pem, cert.pem and key.pem into ``folder`` (made, mode 0700, if missing); refuses
    (ClusterError) to replace any of them. Returns the files written."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("cryptography"):
            raise
        raise ClusterError("cluster-certs needs the cluster extra: pip install '.[cluster]'") from None

    targets = [folder / name for name in CERT_FILES]
    there = [str(t) for t in targets if os.path.lexists(t)]
    if there:
        raise ClusterError(f"{there[0]} is already there; the cluster's members use these certificates: "
                           "delete the folder's ca.pem, cert.pem and key.pem first to make new ones")
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gradreel cluster CA")])
    ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
          .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
          .not_valid_before(now - datetime.timedelta(minutes=5))
          .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                       data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                       crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
          .sign(ca_key, hashes.SHA256()))
    member = (x509.CertificateBuilder()
              .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gradreel cluster member")]))
              .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
              .not_valid_before(now - datetime.timedelta(minutes=5))
              .not_valid_after(now + datetime.timedelta(days=VALID_DAYS))
              .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
              .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                           data_encipherment=False, key_agreement=True, key_cert_sign=False,
                                           crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
              .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH,
                                                    ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
              .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
              .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
              .sign(ca_key, hashes.SHA256()))
    pem = serialization.Encoding.PEM
    data = [ca.public_bytes(pem), member.public_bytes(pem),
            key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())]
    mask = os.umask(0o077)  # the key is never readable by others, not even while it is written
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for target, content in zip(targets, data):
            write_atomic(target, content)
    finally:
        os.umask(mask)
    return targets
