"""Fixtures of the adversarial suite (defined in :mod:`harness`)."""

from __future__ import annotations

from .harness import marker, resolver, secret_env, server

__all__ = ["marker", "resolver", "secret_env", "server"]
