"""Without libseccomp the seccomp layer is OFF with the reason, never a crash."""

from __future__ import annotations

import ctypes

import pytest

from automock.sandbox.kernel import seccomp


def test_missing_libseccomp_is_reported_off(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_library(name: str, *args: object, **kwargs: object) -> ctypes.CDLL:
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(seccomp, "_state", {})
    monkeypatch.setattr(ctypes, "CDLL", no_library)
    monkeypatch.setattr(seccomp.sys, "platform", "linux")
    layer = seccomp.syscall_filter()
    assert not layer.active
    assert "libseccomp unavailable" in layer.detail and "cannot open" in layer.detail
    assert not seccomp.loaded()


def test_not_linux_is_reported_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(seccomp.sys, "platform", "darwin")
    layer = seccomp.syscall_filter()
    assert not layer.active and "needs Linux" in layer.detail
