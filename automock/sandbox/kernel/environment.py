"""The sandboxed program's environment: one builder for every path into the sandbox.

Nothing is inherited from the caller (an LLM loop's API key in the caller's
environment must not reach a candidate). :func:`fixed_environment` is the
whole environment of ``automock run``'s child; :func:`candidate_environment`
is the same for a batch candidate working in ``root``, without the hash
seed (fixed when an interpreter starts, so the pool's zygote or parent
decides it). :mod:`automock.sandbox.child.fresh` applies one to a process.
"""

from __future__ import annotations

import functools
import os
import sys

from automock._seed import hash_seed_for

__all__ = ["candidate_environment", "fixed_environment"]


def fixed_environment(workdir: str | os.PathLike[str], seed: int) -> dict[str, str]:
    """The whole environment a sandbox interpreter working in ``workdir`` starts with.

    Nothing of a plan: its variables are the project's word, applied by the child to
    itself once every layer is on (:func:`automock.sandbox.child.fresh.plan_variables`),
    never to an interpreter's or the loader's start-up.
    """
    env = {
        "PATH": os.pathsep.join(
            [os.path.dirname(sys.executable), "/usr/local/bin", "/usr/bin", "/bin"]
        ),
        "HOME": os.path.join(workdir, "home"),
        "TMPDIR": os.path.join(workdir, "tmp"),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TZ": "UTC",
        "USER": "automock",
        "PYTHONHASHSEED": hash_seed_for(seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }
    return env


@functools.cache
def candidate_environment(root: str, seed: int) -> dict[str, str]:
    """The environment of a batch candidate working in ``root`` (computed once, in the parent)."""
    env = fixed_environment(root, seed)
    env.pop("PYTHONHASHSEED", None)  # fixed at interpreter start: the pool's parent decides it
    env["PWD"] = root
    return env
