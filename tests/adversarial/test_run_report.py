"""Forging or breaking the run report through the real CLI: the exit code is the kernel's, the
layers are what automock observed from outside, the program's own account is labelled and, when
malformed, said to be unusable; automock never crashes (exit 70) on what a program wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from .harness import Attack, Outcome, cli_attack, run_attack

ATTACKS = [run_attack, cli_attack]
IDS = ["run", "cli"]  # a fresh interpreter (in-process cli.main) / the command's forked child


def _layers(outcome: Outcome) -> dict[str, dict]:
    return {layer["name"]: layer for layer in outcome.layers}


def _assert_observed(outcome: Outcome, *, network: bool) -> None:
    layers = _layers(outcome)
    assert not any("FORGED" in layer["detail"] for layer in layers.values()), layers
    assert layers["network"]["active"] is network, layers["network"]
    for name in ("session", "filesystem", "pid", "rlimits", "uid"):
        assert layers[name]["active"], layers[name]
    assert "reported by the sandbox before the program started" in layers["runtime"]["detail"]


@pytest.mark.parametrize("attack", ATTACKS, ids=IDS)
@pytest.mark.parametrize("mode", ["exit", "_exit", "done_only"])
def test_forged_done_message_is_not_believed(attack: Attack, mode: str) -> None:
    """A forged `done` (every layer on, extra accesses, exit 0) then exit 3: the report shows exit
    3, the layers automock observed (network OFF under --allow-network, whatever was claimed),
    no forged access, and says the program's report was unusable."""
    outcome = attack("report_forge", mode, timeout=10, extra=["--allow-network"])
    report = outcome.raw
    assert (report["exit_code"], report["automock_exit_code"]) == (3, 3), outcome.explain()
    assert report["status"] == "error", outcome.explain()
    _assert_observed(outcome, network=False)
    assert "real network allowed by --allow-network" in _layers(outcome)["network"]["detail"]
    assert report["accesses"] == [] and report["unmocked"] == []
    assert report["report_problem"], report
    assert "unusable" in report["detail"] and "FORGED" not in report["detail"]
    if mode == "done_only":
        assert "claims exit code 0" in report["report_problem"]
    else:  # its fake `started` line comes after the real one: not a done message
        assert "not a done message" in report["report_problem"]


def test_forged_done_message_that_agrees_is_labelled_as_the_programs() -> None:
    """A forgery that agrees with the exit status is the program's own account: its accesses
    appear, labelled as reported by the program; its layers never do."""
    outcome = run_attack("report_forge", "agree", timeout=10)
    report = outcome.raw
    assert (report["exit_code"], report["status"]) == (3, "failed"), outcome.explain()
    assert report["accesses_source"] == "program"
    assert [a["api"] for a in report["accesses"]] == ["FORGED"]
    assert report["report_problem"] == ""
    _assert_observed(outcome, network=True)


GARBAGE = [
    "nesting",
    "nesting_dict",
    "huge",
    "huge_lines",
    "utf8",
    "nul",
    "duplicate",
    "exit_code_str",
    "exit_code_bool",
    "layers_int",
    "accesses_bad",
    "accesses_types",
    "layer_keys",
    "setup_nan",
    "big_int",
    "list",
    "no_newline",
    "unknown_key",
    "status_unknown",
]


@pytest.mark.parametrize("kind", GARBAGE)
def test_garbage_on_the_result_pipe(kind: str) -> None:
    outcome = run_attack("report_garbage", kind, timeout=20)
    report = outcome.raw
    assert report["automock_exit_code"] == 3 and report["exit_code"] == 3, outcome.explain()
    assert report["report_problem"], report
    assert "the program's report was unusable" in report["detail"], report["detail"]
    assert report["runs"][0]["report_problem"] == report["report_problem"]
    assert report["accesses"] == []
    _assert_observed(outcome, network=True)


@pytest.mark.parametrize("kind", ["nesting", "huge", "duplicate", "layers_int"])
def test_garbage_through_the_command(kind: str) -> None:
    """The command's forked child, and the text report: one line says the report was unusable."""
    outcome = cli_attack("report_garbage", kind, "_exit", timeout=20)
    assert outcome.raw["automock_exit_code"] == 3, outcome.explain()
    assert outcome.raw["report_problem"], outcome.raw
    _assert_observed(outcome, network=True)


def test_text_report_escapes_control_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A detail with a newline cannot add a forged line to the text report."""
    from automock.cli import main

    program = tmp_path / "forge_text.py"
    program.write_text(
        "import json, os, sys\n"
        "m = {'phase': 'done', 'exit_code': 3, 'status': 'failed',\n"
        "     'detail': 'x\\n  [on ] network    FORGED', 'accesses': [], 'layers': []}\n"
        "for fd in range(3, 64):\n"
        "    try: os.write(fd, (json.dumps(m) + '\\n').encode())\n"
        "    except OSError: pass\n"
        "os._exit(3)\n"
    )
    code = main(["run", "--no-save", str(program)])
    err = capsys.readouterr().err
    assert code == 3
    assert not any(line.lstrip().startswith("[on ] network    FORGED") for line in err.splitlines())
    assert "status: failed, exit code 3 (x\\n  [on ] network    FORGED)" in err
    assert "accesses at runtime, reported by the program" in err
    assert "isolation (observed by automock from outside the sandbox):" in err


def test_text_report_says_the_report_was_unusable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from automock.cli import main

    program = tmp_path / "nested.py"
    program.write_text(
        "import os\nfor fd in range(3, 64):\n"
        "    try: os.write(fd, b'[' * 100000 + b'\\n')\n"
        "    except OSError: pass\n"
        "raise SystemExit(3)\n"
    )
    code = main(["run", "--no-save", str(program)])
    err = capsys.readouterr().err
    assert code == 3
    assert (
        "status: error, exit code 3 (the program's report was unusable: "
        "message 1: JSON nested too deeply)" in err
    ), err
