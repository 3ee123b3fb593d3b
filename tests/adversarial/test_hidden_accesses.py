"""A program that reaches for the network and leaves it out of its own report: the parent reads
the run's network namespace counters from outside, names what the program hid, and the run is
never `passed` (status `unmocked`, exit 5), however the report was forged or suppressed."""

from __future__ import annotations

import pytest

from .harness import Attack, LoopbackServer, cli_attack, run_attack, served_attack

ATTACKS = [run_attack, cli_attack]
IDS = ["run", "cli"]  # a fresh interpreter (in-process cli.main) / the command's forked child
HIDING = ["raw", "forge", "silent", "child", "dns"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
@pytest.mark.parametrize("mode", HIDING)
def test_hidden_network_attempt_is_seen_by_the_parent(
    attack: Attack, mode: str, server: LoopbackServer
) -> None:
    """`_socket` behind the mocks, a forged `done` with no access, no report at all, an
    unrecorded child process, a raw DNS lookup: each exits 0 with no unmocked access of its
    own, and each is `unmocked` with the kernel's count named; the listener saw nothing."""
    outcome = attack("report_hide", mode, str(server.port), timeout=15)
    report = outcome.raw
    assert server.accepted == [], outcome.explain()
    assert report["unmocked"] == [], report["unmocked"]  # the program's word: nothing
    assert (report["status"], report["automock_exit_code"]) == ("unmocked", 5), outcome.explain()
    kernel = report["kernel"]
    assert kernel["network_attempts"] >= 1 and kernel["network"].get("Ip OutNoRoutes", 0) >= 1
    assert report["hidden_accesses"].startswith("the program hid accesses: the kernel saw")
    assert report["hidden_accesses"] == kernel["hidden"] == report["runs"][0]["kernel"]["hidden"]
    assert report["detail"] == report["hidden_accesses"]
    assert report["sources"]["hidden_accesses"] == report["sources"]["kernel"] == "parent"
    assert report["sources"]["accesses"] == "program"


def test_hidden_network_attempt_through_a_warm_server(server: LoopbackServer) -> None:
    """The same forgery handed to a warm server (its handler forks the run): still `unmocked`."""
    outcome = served_attack("report_hide", "forge", str(server.port), timeout=15)
    report = outcome.raw
    assert server.accepted == [], outcome.explain()
    assert (report["status"], report["automock_exit_code"]) == ("unmocked", 5), outcome.explain()
    assert report["hidden_accesses"].startswith("the program hid accesses"), report


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
def test_no_network_attempt_passes_with_the_counts_observed(attack: Attack) -> None:
    """The control: nothing reached for, nothing hidden; the counts were observed (not null)."""
    outcome = attack("report_hide", "none", timeout=15)
    report = outcome.raw
    assert (report["status"], report["automock_exit_code"]) == ("passed", 0), outcome.explain()
    assert report["kernel"]["network"] == {} and report["kernel"]["network_attempts"] == 0
    assert report["kernel"]["network_note"] == "" and report["hidden_accesses"] == ""
    assert report["kernel"]["tasks"] is not None and report["kernel"]["tasks_at_start"] is not None


def test_a_refused_call_the_program_reports_is_not_hidden(server: LoopbackServer) -> None:
    """A plain socket connect, refused by the runtime before the kernel and reported: the counts
    stay at 0 and nothing is said to be hidden (no false alarm on an honest report)."""
    outcome = run_attack("net_socket", str(server.port))
    report = outcome.raw
    assert report["status"] == "unmocked" and report["unmocked"], outcome.explain()
    assert report["kernel"]["network"] == {} and report["hidden_accesses"] == ""


def test_the_kernel_counts_processes_the_program_did_not_report(server: LoopbackServer) -> None:
    """The unrecorded child process shows in the cgroup's task count (observed, not claimed)."""
    outcome = run_attack("report_hide", "child", str(server.port), timeout=15)
    kernel = outcome.raw["kernel"]
    assert kernel["tasks"] > kernel["tasks_at_start"], kernel


def test_without_a_network_namespace_the_counts_are_not_claimed() -> None:
    """`--allow-network`: no namespace of its own, so no count is claimed (null, with why)."""
    outcome = run_attack("report_hide", "none", timeout=15, extra=["--allow-network"])
    kernel = outcome.raw["kernel"]
    assert kernel["network"] is None and kernel["network_attempts"] is None
    assert kernel["network_note"].startswith("not observed"), kernel


def test_the_text_report_names_what_was_hidden(server: LoopbackServer) -> None:
    """Without --json: the kernel's line is labelled as automock's observation, the hidden
    accesses are named, and the status line is `unmocked`."""
    import contextlib
    import io
    import tempfile

    from automock.cli import main

    from .harness import program

    err = io.StringIO()
    with (
        tempfile.TemporaryDirectory() as scratch,
        contextlib.chdir(scratch),
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(err),
    ):
        code = main(
            ["run", str(program("report_hide")), "--no-save", "--", "raw", str(server.port)]
        )
    text = err.getvalue()
    assert code == 5, text
    assert "kernel counts (observed by automock from outside): network: 2 attempt(s)" in text
    assert "  HIDDEN the program hid accesses: the kernel saw 2 network attempt(s)" in text
    assert "\nstatus: unmocked, exit code 5 (the program hid accesses" in text
    assert "accesses at runtime, reported by the program: 0 mocked, 0 unmocked" in text


# ---------------------------------------------------------------- hidden program starts

HIDDEN_STARTS = ["exec", "exec_forge", "exec_silent", "exec_claim", "posix_spawn", "fork_hide"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
@pytest.mark.parametrize("mode", HIDDEN_STARTS)
def test_hidden_program_start_is_seen_by_the_parent(attack: Attack, mode: str) -> None:
    """`/bin/true` started behind the runtime's wrappers (`_posixsubprocess.fork_exec`, libc's
    `posix_spawn` through ctypes; from a child forked with the recorded `os.fork`), with an
    honest-looking, a forged or no report, or a forged one whose counts claim starts it lists no
    access for, and no network attempt: the kernel's process events show a start the report does
    not count, so the run is `unmocked` and says what was hidden."""
    outcome = attack("report_hide", mode, timeout=15)
    report = outcome.raw
    kernel = report["kernel"]
    assert report["unmocked"] == [], report["unmocked"]  # the program's word: nothing
    assert kernel["network"] == {}, kernel  # no network attempt to give it away
    assert (report["status"], report["automock_exit_code"]) == ("unmocked", 5), outcome.explain()
    forks = 2 if mode == "fork_hide" else 1  # the recorded os.fork, then the hidden start's
    assert (kernel["program_starts"], kernel["process_forks"], kernel["starts_note"]) == (
        1,
        forks,
        "",
    )
    assert report["hidden_accesses"] == kernel["hidden"] == report["detail"]
    assert report["hidden_accesses"] == (
        f"the program hid accesses: the kernel saw 1 program start(s) and {forks} process "
        f"fork(s) by the program's processes; the program reported 0 start(s) and {forks - 1} "
        "fork(s)"
    )


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
@pytest.mark.parametrize("mode", ["honest", "threads", "mpfork", "forkexec"])
def test_reported_starts_threads_and_forks_are_not_hidden(attack: Attack, mode: str) -> None:
    """`subprocess.run(["true"])` twice (reported: the kernel's 2 starts match), eight threads
    (not processes: no fork counted), a multiprocessing `fork` pool (forks, reported by the
    runtime, no start), `os.fork` then `os.execv` in the child (the child's start is counted in
    memory it shares with the program): none is ever said to be hidden, and each passes as it
    does today."""
    outcome = attack("report_hide", mode, timeout=20)
    report = outcome.raw
    kernel = report["kernel"]
    assert report["hidden_accesses"] == "" and kernel["hidden"] == "", outcome.explain()
    assert (report["status"], report["automock_exit_code"]) == ("passed", 0), outcome.explain()
    starts = {"honest": 2, "threads": 0, "mpfork": 0, "forkexec": 1}[mode]
    assert kernel["program_starts"] == starts and kernel["starts_note"] == "", kernel
    if mode == "threads":
        assert kernel["process_forks"] == 0, kernel  # eight new tasks, no new process
    if mode == "mpfork":
        assert kernel["process_forks"] >= 2, kernel
        forks = [a for a in report["accesses"] if a["api"] == "os.fork"]
        assert forks and forks[0]["mocked"] is True, report["accesses"]
    if mode == "honest":
        assert [a["api"] for a in report["unmocked"]] == ["subprocess.Popen"], report["unmocked"]


def test_hidden_program_start_through_a_warm_server() -> None:
    """The forged report handed to a warm server (its handler forks the run): still seen."""
    outcome = served_attack("report_hide", "exec_forge", timeout=15)
    report = outcome.raw
    assert (report["status"], report["automock_exit_code"]) == ("unmocked", 5), outcome.explain()
    assert report["kernel"]["program_starts"] == 1, report["kernel"]
