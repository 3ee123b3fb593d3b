"""SHA-256 for automock's own bookkeeping (seeds, content hashes), without loading OpenSSL.

``hashlib`` loads OpenSSL's ``_hashlib`` on import (~3 ms per process here);
CPython's built-in ``_sha256`` gives the same digests. Used on the start-up
path of ``automock run`` (the seed, the scan cache, plan fingerprints).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the same interface as hashlib's
    from hashlib import sha256
else:
    try:
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - interpreters without it
        from hashlib import sha256

__all__ = ["sha256"]
