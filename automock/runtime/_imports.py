"""Run a callback when a module is imported (now, or later while a hook is active).

The runtime patches third-party libraries (requests, httpx, numpy, redis, ...)
only when the program uses them: if the module is already in ``sys.modules``
the callback runs at once; otherwise a meta-path finder wraps the module's
loader so the callback runs right after the module executes. Nothing is
imported just to be patched, which keeps entering the runtime cheap.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import importlib.abc
    import importlib.machinery

from automock.runtime._base import Undo

__all__ = ["when_imported"]

Callback = Callable[[ModuleType], None]


# The finder and the loader proxy are plain classes, not importlib.abc's (the import
# system only calls their methods): importlib.abc imports importlib.resources, and with
# it pathlib, tempfile, shutil, bz2 and lzma, into every process that enters the runtime
# (a batch zygote ~1 MB larger, which every fork copies page tables for).
class _PostImportFinder:
    def __init__(self, callbacks: dict[str, Callback]) -> None:
        self.callbacks = callbacks
        self._busy = threading.local()

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        callback = self.callbacks.get(fullname)
        if callback is None or getattr(self._busy, "name", None) == fullname:
            return None
        self._busy.name = fullname
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    break
            else:
                return None
        finally:
            self._busy.name = None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        original_exec = loader.exec_module
        finder = self

        def exec_module(module: ModuleType) -> None:
            original_exec(module)
            if finder in sys.meta_path and finder.callbacks.get(fullname) is callback:
                callback(module)

        # a per-spec loader proxy so the shared loader object is not mutated
        spec.loader = _LoaderProxy(loader, exec_module)  # type: ignore[assignment]
        return spec


class _LoaderProxy:
    def __init__(self, loader: importlib.abc.Loader, exec_module: Callable[[ModuleType], None]):
        self._loader = loader
        self._exec = exec_module

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._exec(module)

    def __getattr__(self, name: str) -> object:
        return getattr(self._loader, name)


def when_imported(undo: Undo, callbacks: dict[str, Callback]) -> None:
    """Call ``callbacks[name](module)`` for each module now or when it is imported.

    The hook is removed by ``undo``. Callbacks for modules imported later run
    only while the hook is installed.
    """
    pending: dict[str, Callback] = {}
    for name, callback in callbacks.items():
        module = sys.modules.get(name)
        if module is not None:
            callback(module)
        else:
            pending[name] = callback
    if not pending:
        return
    finder = _PostImportFinder(pending)
    sys.meta_path.insert(0, finder)

    def remove() -> None:
        if finder in sys.meta_path:
            sys.meta_path.remove(finder)

    undo.push(remove)
