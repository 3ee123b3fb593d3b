"""A context manager that is also a decorator for sync and async functions.

Every runtime capability (:func:`~automock.runtime.clock.frozen_clock`,
:func:`~automock.runtime.entropy.seeded_random`, ...) subclasses
:class:`Patch`: ``_start()`` applies the patches and returns the value bound
by ``with ... as x``; ``_stop()`` undoes them. Each ``__enter__`` pushes its
own state, so one object can be entered again (nested, or once per call of a
decorated function). ``start()``/``stop()`` are ``__enter__``/``__exit__`` by name
(time-machine's and freezegun's spelling), and ``async with`` works too.

Decorating a class decorates each of its own ``test*`` methods (sync or async), each
call in its own block, and returns the class itself, so pytest and unittest still
collect its tests; a class without such methods is refused with ``TypeError`` rather
than silently turned into something that collects nothing.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar, cast

__all__ = ["Patch", "Undo"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


class Undo:
    """A stack of restore actions, run in reverse order."""

    def __init__(self) -> None:
        self._actions: list[Callable[[], object]] = []

    def push(self, action: Callable[[], object]) -> None:
        self._actions.append(action)

    def setattr(self, target: Any, name: str, value: Any) -> None:
        """Set ``target.name = value`` and remember how to restore it."""
        missing = object()
        # read from __dict__ when possible so class attributes are restored exactly
        old = vars(target).get(name, missing) if hasattr(target, "__dict__") else missing
        if old is missing:
            old = getattr(target, name, missing)
            inherited = old is not missing and name not in getattr(target, "__dict__", {})
        else:
            inherited = False
        setattr(target, name, value)

        def restore() -> None:
            if old is missing or inherited:
                with contextlib.suppress(AttributeError):
                    delattr(target, name)
            else:
                setattr(target, name, old)

        self._actions.append(restore)

    def run(self) -> None:
        errors: list[BaseException] = []
        while self._actions:
            try:
                self._actions.pop()()
            except Exception as exc:  # keep restoring the rest
                errors.append(exc)
        if errors:
            raise errors[0]


class Patch(Generic[T]):
    """Base class: context manager + decorator (sync and async)."""

    def __init__(self) -> None:
        self._undo_stack: list[Undo] = []

    def _start(self, undo: Undo) -> T:  # pragma: no cover - abstract
        raise NotImplementedError

    def __enter__(self) -> T:
        undo = Undo()
        self._undo_stack.append(undo)
        try:
            return self._start(undo)
        except BaseException:
            self._undo_stack.pop()
            undo.run()
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._undo_stack.pop().run()

    def start(self) -> T:
        """Enter without ``with``: what ``__enter__`` returns; undo it with :meth:`stop`."""
        return self.__enter__()

    def stop(self) -> None:
        """Undo the latest :meth:`start` (or ``__enter__``) not undone yet."""
        if not self._undo_stack:
            raise RuntimeError(f"{type(self).__name__}.stop() called without start()")
        self._undo_stack.pop().run()

    async def __aenter__(self) -> T:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.__exit__(exc_type, exc, tb)

    def __call__(self, func: F) -> F:
        if isinstance(func, type):
            return cast(F, self._decorate_class(func))
        if inspect.iscoroutinefunction(func):

            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                with self:
                    return await func(*args, **kwargs)

            return cast(F, async_wrapper)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return cast(F, wrapper)

    def _decorate_class(self, cls: type) -> type:
        tests = [
            name
            for name, value in vars(cls).items()
            if name.startswith("test") and inspect.isfunction(value)
        ]
        if not tests:
            raise TypeError(
                f"{type(self).__name__} decorates functions, or a class through its test* "
                f"methods, and {cls.__qualname__} has none; decorate its methods instead"
            )
        for name in tests:
            setattr(cls, name, self(vars(cls)[name]))
        return cls
