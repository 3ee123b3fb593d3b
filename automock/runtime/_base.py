"""A context manager that is also a decorator for sync and async functions.

Every runtime capability (:func:`~automock.runtime.clock.frozen_clock`,
:func:`~automock.runtime.entropy.seeded_random`, ...) subclasses
:class:`Patch`: ``_start()`` applies the patches and returns the value bound
by ``with ... as x``; ``_stop()`` undoes them. Each ``__enter__`` pushes its
own state, so one object can be entered again (nested, or once per call of a
decorated function).
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

    def __call__(self, func: F) -> F:
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
