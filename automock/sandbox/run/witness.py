"""What the kernel counted during a run, read by the parent from outside the sandbox.

The accesses a run reports come from the program's own process, which can leave out
whatever it likes. Two kernel counts need no word from it:

- **network attempts**: the run's network namespace has its own IPv4 counters
  (``/proc/<pid>/net/snmp``). With no interface up a ``connect()`` or ``sendto()`` to any
  IPv4 address, loopback included, fails with ``ENETUNREACH`` and moves ``Ip OutNoRoutes``
  (a DNS lookup moves it for each query it tries to send); a packet that did leave would move
  ``OutRequests``, ``Tcp ActiveOpens`` or ``Udp OutDatagrams``. The parent opens the file
  when the sandbox reports it started (the program has not run yet), reads the counters
  then, keeps the file open (an open ``/proc/<pid>/net`` file holds its namespace) and
  reads them again after the whole PID namespace ended. IPv6 attempts fail before any
  counter moves (no address is configured), as do raw sockets the sandbox uid may not open.
- **tasks**: the most tasks (processes and threads alike) the run's pids cgroup ever held
  (``pids.peak``), and how many it held when the program started.
- **program starts and process forks** of the program's processes (its own and those it
  forked that still run its code), from the kernel's process events
  (:mod:`automock.sandbox.run.starts`). The runtime records each start
  (``subprocess``, ``os.system``, ``os.posix_spawn``, ``os.exec*``, a followed Python
  child) and each ``os.fork``, and the program's report counts every call; more starts,
  or more forks than starts and forks together, than the report counts are ones the
  program hid (``_posixsubprocess.fork_exec``, ``posix_spawn`` through ctypes, a forged
  or absent report).

The runtime stops a mocked or refused call before it reaches the kernel, and a process
the program starts (``curl``) is reported as an unmocked ``process`` access, so a network
attempt the kernel saw while the program's report lists no unmocked network or process
access is one the program hid (or made behind the runtime's back): :func:`hidden` says so,
and the judge (:func:`automock.sandbox.judge.with_witness`) never lets that run pass.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import IO

from automock._serialize import JsonMixin
from automock.runtime.events import Access
from automock.sandbox.kernel import cgroup as cg
from automock.sandbox.run.observe import program_process
from automock.sandbox.run.starts import Starts, StartWatch

__all__ = ["KernelWatch", "NetworkCounters", "Witness", "hidden"]

# the outbound IPv4 counters a program's attempt can move, as "Group Name"
OUTBOUND = (
    "Ip OutRequests",
    "Ip OutNoRoutes",
    "Ip OutDiscards",
    "Icmp OutMsgs",
    "Tcp ActiveOpens",
    "Tcp AttemptFails",
    "Tcp OutSegs",
    "Udp OutDatagrams",
    "Udp NoPorts",
    "Udp SndbufErrors",
    "UdpLite OutDatagrams",
)


@dataclass(frozen=True, slots=True)
class Witness(JsonMixin):
    """The kernel's counts for one run, observed by the parent (never the program's word).

    ``network``: each outbound counter of the run's network namespace that moved while the
    program ran, with how much (``{}``: none moved); ``None`` when not observed, and
    ``network_note`` says why (no network namespace, the sandbox never started). ``tasks``:
    the most tasks the run's cgroup held at once, ``tasks_at_start`` those at the program's
    start (``None``: not observed). ``starts``/``forks``: the programs the program's processes
    started and the processes they forked (:mod:`automock.sandbox.run.starts`; ``None``: not
    observed, ``starts_note`` says why).
    """

    network: Mapping[str, int] | None = None
    network_note: str = "not observed: the sandbox was not seen starting"
    tasks: int | None = None
    tasks_at_start: int | None = None
    starts: int | None = None
    forks: int | None = None
    starts_note: str = "not observed: the sandbox was not seen starting"
    hidden: str = ""

    @property
    def attempts(self) -> int:
        """How many network attempts the counters show (each failed route or opened flow)."""
        moved = self.network or {}
        sent = sum(moved.get(f"Ip {k}", 0) for k in ("OutNoRoutes", "OutRequests", "OutDiscards"))
        return sent or (1 if moved else 0)

    def describe(self) -> str:
        """One line for the text report."""
        if self.network is None:
            net = f"network {self.network_note}"
        elif self.network:
            moved = ", ".join(f"{k} +{v}" for k, v in self.network.items())
            net = f"network: {self.attempts} attempt(s) ({moved})"
        else:
            net = "network: no attempt"
        if self.starts is None:
            net += f"; program starts {self.starts_note}"
        else:
            net += f"; {self.starts} program start(s), {self.forks} process fork(s)"
        if self.tasks is None:
            return f"{net}; tasks not observed"
        start = f", {self.tasks_at_start} at the start" if self.tasks_at_start is not None else ""
        return f"{net}; tasks (processes and threads): at most {self.tasks} at once{start}"


def _counters(text: str) -> dict[str, int]:
    """``{"Ip OutNoRoutes": 2, ...}`` from ``/proc/net/snmp`` (header and value lines in pairs)."""
    lines = text.splitlines()
    found: dict[str, int] = {}
    for head, values in zip(lines[::2], lines[1::2], strict=False):
        names, numbers = head.split(), values.split()
        if not names or not numbers or names[0] != numbers[0]:
            continue
        group = names[0].rstrip(":")
        for name, number in zip(names[1:], numbers[1:], strict=False):
            with contextlib.suppress(ValueError):
                found[f"{group} {name}"] = int(number)
    return found


class NetworkCounters:
    """The run's network namespace counters, held open from the program's start to its end."""

    def __init__(self, handle: IO[str] | None, note: str) -> None:
        self._handle, self.note = handle, note
        self._start = self._read() if handle is not None else {}

    @classmethod
    def open(cls, pid: int) -> NetworkCounters:
        """Open the counters of the network namespace the sandbox ``pid`` runs the program in."""
        target = program_process(pid)
        if target is None:
            return cls(None, "not observed: the sandbox's process could not be found")
        try:
            own = os.readlink("/proc/self/ns/net")
            if os.readlink(f"/proc/{target}/ns/net") == own:
                return cls(None, "not observed: no network namespace of its own")
            handle = open(f"/proc/{target}/net/snmp", encoding="ascii", errors="replace")  # noqa: SIM115
        except OSError as exc:
            return cls(None, f"not observed: {exc.strerror or type(exc).__name__}")
        return cls(handle, "")

    def _read(self) -> dict[str, int]:
        assert self._handle is not None
        self._handle.seek(0)
        return _counters(self._handle.read())

    def moved(self) -> dict[str, int] | None:
        """The outbound counters that moved since :meth:`open` (None: not observed); closes."""
        if self._handle is None:
            return None
        try:
            now = self._read()
        except OSError:
            return None
        finally:
            self.close()
        start = self._start
        return {k: now[k] - start.get(k, 0) for k in OUTBOUND if now.get(k, 0) > start.get(k, 0)}

    def close(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            handle.close()


class KernelWatch:
    """The parent's watch on one run's kernel counts: :meth:`start` when the sandbox said it
    started (before any program code), :meth:`witness` after the child was reaped."""

    def __init__(self) -> None:
        self.network: NetworkCounters | None = None
        self.starts: StartWatch | None = None
        self.tasks_at_start: int | None = None

    def start(self, pid: int, cgroup: cg.Cgroup | str) -> None:
        self.starts = StartWatch.open(program_process(pid))
        self.network = NetworkCounters.open(pid)
        self.tasks_at_start = cgroup.tasks() if isinstance(cgroup, cg.Cgroup) else None

    def witness(self, cgroup: cg.Cgroup | str) -> Witness:
        """The counts now (the run's PID namespace has ended)."""
        if self.network is None:
            return Witness()
        moved = self.network.moved()
        note = self.network.note or ("" if moved is not None else "not observed: unreadable")
        peak = cgroup.tasks(peak=True) if isinstance(cgroup, cg.Cgroup) else None
        started = self.starts.finish() if self.starts is not None else Starts()
        return Witness(
            moved, note, peak, self.tasks_at_start, started.execs, started.forks, started.note
        )

    def close(self) -> None:
        if self.network is not None:
            self.network.close()
        if self.starts is not None:
            self.starts.close()


def _reported(extra: object) -> tuple[int, int]:
    """(starts, forks) the program's report counts (``extra.processes``; else none)."""
    counts = extra.get("processes") if isinstance(extra, dict) else None
    found = [counts.get(k) if isinstance(counts, dict) else 0 for k in ("starts", "forks")]
    starts, forks = (n if type(n) is int and n >= 0 else 0 for n in found)
    return starts, forks


def _network_hidden(witness: Witness, accesses: Iterable[Access], what: str) -> str:
    if not witness.network:
        return ""
    if any(not a.mocked and a.kind in ("network", "process") for a in accesses):
        return ""  # a refused call, or a process the program said it started
    moved = ", ".join(f"{k} +{v}" for k, v in witness.network.items())
    return f"the kernel saw {witness.attempts} network attempt(s) ({moved}); {what}"


def _starts_hidden(
    witness: Witness, accesses: Iterable[Access], extra: object, reported: bool
) -> str:
    if witness.starts is None or witness.forks is None:
        return ""
    listed = any(a.kind == "process" for a in accesses)  # counts with no access behind: none
    starts, forks = _reported(extra) if reported and listed else (0, 0)
    if witness.starts <= starts and witness.forks <= starts + forks:
        return ""
    said = f"the program reported {starts} start(s) and {forks} fork(s)"
    return (
        f"the kernel saw {witness.starts} program start(s) and {witness.forks} process "
        f"fork(s) by the program's processes; {said if reported else 'its report was unusable'}"
    )


def hidden(
    witness: Witness, accesses: Iterable[Access], reported: bool, extra: object = None
) -> Witness:
    """``witness`` with ``hidden`` saying how the kernel contradicts the program's report
    ("" when it does not). ``reported``: the program's report was usable; ``extra``: its
    ``extra`` field (untrusted: anything malformed counts as nothing reported)."""
    what = "its report was unusable" if not reported else "the program reported none"
    accesses = tuple(accesses)
    found = [
        _network_hidden(witness, accesses, what),
        _starts_hidden(witness, accesses, extra, reported),
    ]
    if not any(found):
        return witness
    return replace(
        witness, hidden="the program hid accesses: " + "; and ".join(filter(None, found))
    )
