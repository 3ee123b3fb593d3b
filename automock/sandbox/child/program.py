"""Child side of a sandboxed run: isolate, apply the plan, run the file as ``__main__``.

Started by :mod:`automock.sandbox.run.spawn` as a fresh interpreter with pipe fds and
the parent's pid as arguments: it arms ``PR_SET_PDEATHSIG``, warms the runtime's imports,
(for a run with the network denied and no ``--read`` paths) enters its namespaces, reads
the spec (JSON) from the first fd, enters the rest of its isolation (at the rlimits step it
reads the parent's count of the sandbox uid's tasks from the same fd:
:mod:`automock.sandbox.child.spec_pipe`), applies ``automock.runtime.deterministic(plan)``,
runs the program as ``__main__`` (as ``python FILE`` does), and writes JSON lines to the
result pipe (the second fd, close-on-exec so the program's subprocesses never see it):
``{"phase": "started", "layers": [...]}`` before the program runs, then
``{"phase": "done", ...}`` (a :class:`ChildOutcome`). Between the two it waits for the
parent's go-ahead on the fourth fd, so the parent observes the isolation from outside
before any program code runs (:mod:`automock.sandbox.run.observe`); meanwhile it enters
the runtime (automock's own code: the plan's mocks, the workdir's paths; nothing the
observation looks at). The ``done`` message is the program's own account: diagnostics only.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext, suppress
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from automock._serialize import JsonMixin
from automock.errors import AutomockError
from automock.sandbox.child import fresh
from automock.sandbox.child.spec_pipe import read_spec, read_tasks, settle
from automock.sandbox.child.status import Status, exception_status, exit_status, signal_status
from automock.sandbox.kernel.isolation import LayerStatus, Limits, enter_isolation

__all__ = ["ChildOutcome", "execute", "execute_and_report", "main"]


@dataclass(frozen=True, slots=True)
class ChildOutcome(JsonMixin):
    """What the child knows about its run (the parent adds signals and timeouts)."""

    exit_code: int
    status: str
    exception: str | None = None
    detail: str = ""
    accesses: tuple[dict[str, Any], ...] = ()
    layers: tuple[LayerStatus, ...] = ()
    seconds: float = 0.0
    setup_seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def _runtime_context(
    plan_data: dict[str, Any] | None, seed: int, observe: bool = False
) -> tuple[AbstractContextManager[Any], LayerStatus]:
    if plan_data is None:
        return nullcontext(), LayerStatus("runtime", False, "no plan: the program runs unmocked")
    try:
        from automock.runtime import deterministic
    except ImportError as exc:
        return nullcontext(), LayerStatus("runtime", False, f"automock.runtime unavailable ({exc})")
    from automock.plan.model import Plan

    plan = Plan.from_dict(plan_data)
    kinds = ", ".join(sorted(plan.kinds())) or "no touchpoints"
    detail = (
        f"plan applied (seed {seed}; {len(plan.entries)} entries: {kinds}; network {plan.network})"
    )
    return deterministic(plan, seed=seed, observe=observe), LayerStatus("runtime", True, detail)


def _children_context(spec: dict[str, Any], root: str, seed: int) -> AbstractContextManager[Any]:
    """Python interpreters the program starts follow its plan (:mod:`automock.runtime.children`):
    the plan is written into the workdir (outside the program's directory) for them."""
    if spec.get("plan") is None:
        return nullcontext()
    try:
        from automock.runtime.children import followed_children
    except ImportError:
        return nullcontext()
    plan = _with_cassette_at(spec, root) if spec.get("cassette_path") else spec["plan"]
    path = os.path.join(root, ".automock-plan.json")
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({**plan, "seed": seed}, handle)
    return followed_children(path, seed, spec["package_root"])


def _with_cassette_at(spec: dict[str, Any], root: str) -> dict[str, Any]:
    """The plan with its cassette at an absolute path in this view of the workdir (``root``),
    so vcrpy finds it (and saves a recording) even if the program changes directory."""
    plan = dict(spec["plan"])
    plan["cassette"] = {**plan["cassette"], "path": os.path.join(root, spec["cassette_path"])}
    return plan


def _trimmed_traceback(exc: BaseException, script: str) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename != script:
        tb = tb.tb_next
    import traceback  # only when the program failed

    return "".join(traceback.format_exception(type(exc), exc, tb or exc.__traceback__))


def _run_as_main(script: str) -> None:
    """Execute ``script`` as ``python FILE`` does: in a new ``__main__`` module that stays in
    ``sys.modules`` (threads and ``atexit`` handlers still find it after the code ends), its
    own ``__future__`` flags only, the source decoded by its coding cookie."""
    from importlib.machinery import SourceFileLoader

    with open(script, "rb") as handle:
        source = handle.read()
    module = fresh.main_module(script, loader=SourceFileLoader("__main__", script))
    exec(compile(source, script, "exec", dont_inherit=True), module.__dict__)


def _observed(exc: BaseException | None = None, script: str = "") -> dict[str, Any]:
    """A trial run's observations (:mod:`automock.runtime.observations`); ``exc``: note it."""
    from automock.runtime import observations as seen

    return seen.snapshot() if exc is None else seen.note_exception(exc, os.path.dirname(script))


def _classify(exc: BaseException, limits: Limits) -> tuple[Status, str]:
    """(status, detail) for an exception that escaped the program."""
    return exception_status(
        exc,
        memory_mb=limits.memory_mb,
        processes=limits.processes,
        file_size_mb=limits.file_size_mb,
    )


def _run_program(
    script: str, argv: Sequence[str], limits: Limits
) -> tuple[int, Status, str | None, str]:
    """Run ``script`` as ``__main__``; return (exit_code, status, exception, detail)."""
    sys.argv = [script, *argv]
    try:
        _run_as_main(script)
    except SystemExit as exc:
        status, code = exit_status(exc.code)
        if not isinstance(exc.code, int | None):
            print(exc.code, file=sys.stderr)
            return code, status, None, "sys.exit with a message"
        return code, status, None, "" if status == Status.PASSED else f"sys.exit({exc.code})"
    except BaseException as exc:  # the program's own failure, reported like python does
        status, detail = _classify(exc, limits)
        name = f"{type(exc).__name__}: {exc}"[:300]
        _observed(exc, script)
        try:
            text = _trimmed_traceback(exc, script)
        except MemoryError:
            text = f"{name}\n"
        # python FILE dies of SIGINT after an uncaught KeyboardInterrupt: 128 + 2, as for a signal
        code = 128 + signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1
        exc.__traceback__ = None
        del exc
        sys.stderr.write(text)
        return code, status, name, detail
    return 0, Status.PASSED, None, ""


def _default_signal_deaths(result_fd: int, limits: Limits) -> None:
    """As PID 1, die of the signals a normal process dies of (:mod:`automock.sandbox.child.initsignals`).

    The exit code is 128 + N; the CPU limit's ``SIGXCPU`` is a timeout.
    """
    from automock.sandbox.child.initsignals import die_as_usual

    def report(signum: int) -> None:
        for stream in (sys.stdout, sys.stderr):
            with suppress(OSError, ValueError):
                stream.flush()
        status, detail = signal_status(
            signum, cpu_seconds=limits.cpu_seconds, file_size_mb=limits.file_size_mb
        )
        if result_fd >= 0:
            _write_message(
                result_fd,
                {"phase": "done", "exit_code": 128 + signum, "status": status, "detail": detail},
            )
        os._exit(128 + signum)

    die_as_usual(report)


def _end_of_program(me: int, code: int) -> None:
    """The program's code is done: forked copies exit now; namespace init reaps the rest."""
    if os.getpid() != me:  # a process the program forked ran off the end of the script
        for stream in (sys.stdout, sys.stderr):
            with suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    if me == 1:  # init of our PID namespace: leftovers would die with us anyway, end them now
        with suppress(OSError):
            os.kill(-1, signal.SIGKILL)


def _tasks(spec: dict[str, Any]) -> int | Callable[[], int] | None:
    """The sandbox uid's tasks as the parent counted them: in the spec (a forked child), or
    to be read from the spec's pipe at the rlimits step (``tasks_fd``: a spawned child)."""
    if "tasks" in spec:
        return int(spec["tasks"])
    if "tasks_fd" in spec:
        return partial(read_tasks, int(spec["tasks_fd"]))
    return None


def execute(spec: dict[str, Any], entered: tuple[LayerStatus, ...] | None = None) -> ChildOutcome:
    """Isolate this process per ``spec``, run the program, and describe the outcome.
    ``entered``: the namespaces this process entered before it had the spec (:func:`main`)."""
    clock = time.perf_counter  # the real one: the runtime, entered below, replaces it
    started, wall = clock(), time.time()  # real until the runtime is entered
    limits = Limits(**spec["limits"])
    seed = int(spec["seed"])
    observe = bool(spec.get("observe"))  # a drafting loop's trial run
    runtime_cm, runtime_layer = _runtime_context(spec.get("plan"), seed, observe)
    layers = enter_isolation(
        limits,
        allow_network=bool(spec["allow_network"]),
        workdir=spec["workdir"],
        readable=tuple(spec.get("readable", ())),
        uid=spec.get("uid"),  # the run's own, leased by the parent (None: not root, no drop)
        tasks=_tasks(spec),
        entered=entered,
    )
    started = clock() - (time.time() - wall)  # a new time namespace moved clock(), not time()
    if spec.get("cassette_path") and spec.get("plan"):  # staged in the workdir by the parent:
        plan = _with_cassette_at(spec, os.getcwd())
        runtime_cm, runtime_layer = _runtime_context(plan, seed, observe)
    go_fd = -1
    if "result_fd" in spec:  # tell the parent what is in force before any program code runs
        started_msg = {
            "phase": "started",
            "layers": [x.to_dict() for x in (*layers, runtime_layer)],
        }
        _write_message(int(spec["result_fd"]), started_msg)
        go_fd = int(spec.get("go_fd", -1))  # waited for below, once the runtime is entered
    if os.getpid() == 1:
        _default_signal_deaths(int(spec.get("result_fd", -1)), limits)
    root = os.getcwd()
    fresh.plan_variables(spec.get("env", {}))  # only now: every layer is on
    os.environ.update(HOME=os.path.join(root, "home"), TMPDIR=os.path.join(root, "tmp"))
    script = os.path.join(root, spec["script_rel"])
    os.chdir(os.path.dirname(script))
    os.environ["PWD"] = os.getcwd()
    sys.path[:] = [os.path.dirname(script), *[p for p in sys.path if p], spec["package_root"]]
    me = os.getpid()
    session_log, setup = None, -1.0
    children_cm = _children_context(spec, root, seed)
    from automock.runtime.events import recording

    with recording() as log:
        try:
            # entering the runtime is automock's own work: done while the parent observes
            with runtime_cm as session, children_cm:
                go_fd = _wait_for_parent(go_fd)  # no program code before the parent's go
                setup = clock() - started
                session_log = getattr(session, "log", None)
                code, status, exception, detail = _run_program(script, spec.get("args", ()), limits)
                fresh.interpreter_exit()  # late threads and atexit handlers: still deterministic
                _end_of_program(me, code)
        except BaseException as exc:  # the runtime itself failed on entry or exit
            go_fd = _wait_for_parent(go_fd)  # its entry failed: still after the parent's go
            setup = setup if setup >= 0 else clock() - started
            status, detail = _classify(exc, limits)
            code = exc.exit_code if isinstance(exc, AutomockError) else 1  # e.g. 3: bad cassette
            exception = f"{type(exc).__name__}: {exc}"[:300]
            sys.stderr.write(f"automock: runtime failed: {exception}\n")
        for stream in (sys.stdout, sys.stderr):
            with suppress(OSError, ValueError):
                stream.flush()
        seen, calls = log.merged(session_log)  # the accesses, and every start and fork
        accesses = tuple(a.to_dict() for a in seen)
    if any(not a["mocked"] for a in accesses) and status == Status.ERROR:
        # an UnmockedAccessError wrapped by the client library (e.g. requests' ConnectionError)
        status = Status.UNMOCKED if "UnmockedAccessError" in (exception or "") else status
    return ChildOutcome(
        exit_code=code,
        status=status,
        exception=exception,
        detail=detail,
        accesses=accesses,
        layers=(*layers, runtime_layer),
        seconds=clock() - started - setup,
        setup_seconds=setup,
        extra={"processes": calls, **({"observations": _observed()} if observe else {})},
    )


def _write_message(fd: int, message: dict[str, Any]) -> None:
    """One JSON line on the result pipe (best effort: the program may have closed it)."""
    payload = (json.dumps(message) + "\n").encode("utf-8")
    try:
        while payload:
            payload = payload[os.write(fd, payload) :]
    except OSError:
        pass  # the parent falls back to the exit status


def _wait_for_parent(fd: int) -> int:
    """Block until the parent observed our isolation (a byte on ``fd``, or end of file), so
    it sees the layers before any program code runs; close ``fd``; -1 (nothing to wait for)."""
    if fd < 0:
        return -1
    with suppress(OSError):
        os.read(fd, 1)
    with suppress(OSError):
        os.close(fd)
    return -1


def warm_up() -> None:
    """Import what every run needs while the parent scans and drafts (or before a warm
    server's spare is asked for), compute what every run's isolation computes, then collect
    and freeze what is there (automock's and the standard library's objects), so the
    collector's next full pass, which came due as the runtime was entered, skips them."""
    try:
        from automock.plan.model import Plan
        from automock.runtime import deterministic
    except ImportError:
        return
    from automock.runtime.events import recording

    with recording(), deterministic(Plan(), seed=0):
        pass
    from automock.sandbox.kernel.isolation import warm_isolation

    # the read allow-list and the seccomp filter (not which paths the uid reaches: mounts)
    warm_isolation(None)
    import gc

    gc.collect()
    gc.freeze()


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the child interpreter: ``main([spec_fd, result_fd, parent_pid, go_fd,
    ahead])``; ``ahead`` "1": enter the namespaces before the spec comes (for a run with the
    network denied and no ``--read`` paths; the isolation checks that the spec is that)."""
    args = list(sys.argv[1:] if argv is None else argv)
    spec_fd, result_fd = int(args[0]), int(args[1])
    go_fd = int(args[3]) if len(args) > 3 else -1
    if go_fd >= 0:  # at fixed numbers: the parent's depend on what it had open (.spec_pipe)
        spec_fd, result_fd, go_fd = settle([spec_fd, result_fd, go_fd])
    if go_fd >= 0:
        os.set_inheritable(go_fd, False)
    if len(args) > 2 and sys.platform.startswith("linux"):  # die with the automock parent
        from automock.sandbox.kernel.syscalls import die_with_parent

        die_with_parent(int(args[2]))
    from automock.sandbox.child import fresh

    fresh.signals()  # not what automock was started with (e.g. SIGINT ignored in a background job)
    os.set_inheritable(result_fd, False)
    warm_up()
    sys.pycache_prefix, sys.dont_write_bytecode = None, True  # the program writes no bytecode
    entered = None
    if args[4:5] == ["1"]:  # a run with the network denied and no --read: namespaces now
        from automock.sandbox.kernel.isolation import enter_namespaces

        entered = enter_namespaces(allow_network=False, workdir=os.path.dirname(os.getcwd()))
    try:
        spec = read_spec(spec_fd)
    except ValueError:  # the parent gave up before sending a spec
        os._exit(0)
    sys.exit(execute_and_report(spec, result_fd, go_fd, tasks_fd=spec_fd, entered=entered))


def execute_and_report(
    spec: dict[str, Any],
    result_fd: int,
    go_fd: int = -1,
    *,
    tasks_fd: int = -1,
    entered: tuple[LayerStatus, ...] | None = None,
) -> int:
    """:func:`execute`, then the ``done`` message on ``result_fd`` (closed); the exit code.
    ``go_fd``: the parent's go after the ``started`` line (-1: no wait); ``tasks_fd``: its
    count of the run uid's tasks (:mod:`.spec_pipe`)."""
    fds = {"result_fd": result_fd, "go_fd": go_fd}
    if tasks_fd >= 0:
        fds["tasks_fd"] = tasks_fd
    outcome = execute({**spec, **fds}, entered)
    _write_message(result_fd, {"phase": "done", **outcome.to_dict()})
    with suppress(OSError):
        os.close(result_fd)
    return outcome.exit_code


if __name__ == "__main__":  # pragma: no cover
    main()
