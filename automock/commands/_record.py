"""``automock run --record``: record real HTTP traffic into a cassette, then replay it offline.

Cassette paths in a plan are relative to the directory that holds the plan's
folder (for ``fixtures/app.automock.json`` that is the directory holding
``fixtures/``), so a plan written as ``"fixtures/app.cassette.yaml"`` works
from there; when nothing exists there, the plan's own folder, the current
directory and then the program's directory are tried. :func:`resolve_cassette` turns the path into
an absolute one for :func:`automock.pipeline.run.run_file`, which copies
the file into the sandbox workdir (and a recording back out).

A recording run (:class:`Recording`) allows the real network (no network
namespace, as ``--allow-network``), serves nothing from ``stub_http``
entries (real traffic is the point), and has vcrpy write
``<plan folder>/<stem>.cassette.yaml`` (or the cassette the plan already
names) in the chosen record mode. Afterwards the plan is pointed at the
cassette in ``record_mode: none`` with its ``stub_http`` entries turned into
``cassette`` entries, so a plain ``automock run`` replays it with the network
namespace on. A plan edited by hand is never rewritten: a note says what to add.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from automock.errors import PlanError
from automock.plan.locate import cassette_file, leads_out, save_base
from automock.plan.model import CassetteSettings, Plan
from automock.report import RunReport
from automock.sandbox.kernel.layers import LayerStatus

__all__ = ["Recording", "check_plan_cassette", "replay_hint", "resolve_cassette"]


def _base(plan_path: Path) -> Path:
    """The directory cassette paths of this plan are relative to."""
    return plan_path.resolve().parent.parent


def _shown(path: Path) -> str:
    """``path`` relative to the current directory when inside it, else absolute."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def resolve_cassette(plan: Plan, plan_path: Path | None, file: Path) -> Plan:
    """``plan`` with its cassette (if any) at an absolute path (see the module docstring)."""
    if plan.cassette is None or Path(plan.cassette.path).is_absolute():
        return plan
    rel = Path(plan.cassette.path)
    # the plan's place first (automock.plan.locate.cassette_file, as the pytest plugin does)
    places = [Path(cassette_file(str(rel), plan_path))] if plan_path is not None else []
    places += [Path.cwd() / rel, file.resolve().parent / rel]
    found = next((p for p in places if p.is_file()), places[0])
    return replace(plan, cassette=replace(plan.cassette, path=str(found)))


def check_plan_cassette(plan: Plan, plan_path: Path, file: Path) -> None:
    """The cassette the plan names (the project's word) stays in the project: relative, no
    ``..``, no symbolic link out of the place it is found from (one line, exit code 3)."""
    if plan.cassette is None:
        return
    from automock.plan.rights import contained_cassette

    rel = plan.cassette.path
    found = resolve_cassette(plan, plan_path, file).cassette
    assert found is not None
    folder = os.path.dirname(os.path.abspath(plan_path))  # the places resolve_cassette tries
    bases = [os.path.dirname(folder), folder, os.getcwd(), str(file.resolve().parent)]
    same = os.path.normpath(found.path)
    base = [b for b in bases if os.path.normpath(os.path.join(b, rel)) == same][:1]
    contained_cassette(str(plan_path), rel, found.path, base or bases)  # from where it was found


def _inside_project(host: Path, plan_path: Path, file: Path) -> None:
    """The cassette automock names beside the plan stays in the project the plan belongs to
    (``fixtures -> /elsewhere`` would take a recording there)."""
    root = save_base(file, plan_path)
    outside = leads_out(host, root) if root is not None else None
    if outside is not None:
        raise PlanError(
            f"{plan_path.parent}: leads out of the project through a symbolic link (to "
            f"{outside}); automock does not record into it (make it a plain directory, or "
            "name the cassette yourself with --cassette PATH)"
        )


def replay_hint(report: RunReport, run_plan: Plan, file: Path) -> list[str]:
    """After a replay that missed: which requests the cassette lacks and how to add them."""
    missing = [a.target for a in report.unmocked if a.kind == "network"]
    if run_plan.cassette is None or run_plan.cassette.record_mode != "none" or not missing:
        return []
    where = _shown(Path(run_plan.cassette.path))
    return [
        f"{where} has no recording of {', '.join(dict.fromkeys(missing))}; add it with: "
        f"automock run {file} --record --record-mode new_episodes -- ARGS"
    ]


def _replaying(plan: Plan, cassette: str) -> Plan:
    """The plan replaying ``cassette``: HTTP stubs give way to it (stubs are served first)."""
    entries = tuple(
        replace(e, strategy="cassette", data={}, guessed=()) if e.strategy == "stub_http" else e
        for e in plan.entries
    )
    return replace(
        plan, cassette=CassetteSettings(path=cassette, record_mode="none"), entries=entries
    )


def _interactions(path: Path) -> int:
    import yaml  # type: ignore[import-untyped]  # (PyYAML comes with vcrpy)

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return 0
    items = data.get("interactions") if isinstance(data, dict) else None
    return len(items) if isinstance(items, list) else 0


@dataclass
class Recording:
    """One ``--record`` run: where the cassette goes, and what became of it."""

    file: Path
    plan_path: Path
    mode: str
    host: Path
    rel: str
    before: bytes | None = None
    notes: list[str] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def start(cls, plan: Plan, plan_path: Path, file: Path, mode: str) -> Recording:
        """Choose the cassette: the one the plan names, else ``<plan folder>/<stem>.cassette.yaml``."""
        if plan.cassette is not None:
            host = Path(resolve_cassette(plan, plan_path, file).cassette.path)  # type: ignore[union-attr]
            rel = plan.cassette.path
        else:
            host = plan_path.resolve().parent / f"{file.stem}.cassette.yaml"
            _inside_project(host, plan_path, file)
            rel = os.path.relpath(host, _base(plan_path)).replace(os.sep, "/")
        before = host.read_bytes() if host.is_file() else None
        recording = cls(
            file=file, plan_path=plan_path, mode=mode, host=host, rel=rel, before=before
        )
        if before is not None and mode == "once":
            recording.notes.append(
                f"{_shown(host)} exists: record mode once replays it and refuses new requests "
                "(--record-mode new_episodes adds them, --record-mode all records afresh)"
            )
        return recording

    def run_plan(self, plan: Plan) -> Plan:
        """The plan of the recording run: real network, vcrpy writing the cassette."""
        replaying = _replaying(plan, str(self.host))
        assert replaying.cassette is not None
        return replace(
            replaying,
            cassette=replace(replaying.cassette, record_mode=self.mode),
            network="allow",
        )

    def finish(self, plan: Plan) -> list[str]:
        """After the run: point the plan at the cassette; return notes for the person."""
        after = self.host.read_bytes() if self.host.is_file() else None
        written = after is not None and after != self.before
        self.result = {
            "cassette": _shown(self.host),
            "record_mode": self.mode,
            "written": written,
            "interactions": _interactions(self.host) if after is not None else 0,
            "plan": _shown(self.plan_path),
            "plan_updated": False,
        }
        notes: list[str] = []
        if after is None:
            notes.append(f"no HTTP traffic was recorded; {_shown(self.host)} was not written")
            return notes
        wanted = _replaying(plan, self.rel)
        entry = json.dumps({"cassette": {"path": self.rel, "record_mode": "none"}})[1:-1]
        stubs = any(e.strategy == "stub_http" for e in plan.entries)
        also = ' and set its stub_http entries\' "strategy" to "cassette"' if stubs else ""
        if wanted == plan:
            pass  # already replays this cassette
        elif not self.plan_path.is_file():
            notes.append(
                f"the plan was not saved (--no-save); to replay, add {entry} to a plan{also}"
            )
        else:
            from automock.plan.io import save_plan

            try:
                save_plan(wanted, self.plan_path, beneath=save_base(self.file, self.plan_path))
            except PlanError:
                notes.append(
                    f"{_shown(self.plan_path)} was edited by hand, so it is left alone; "
                    f"to replay the recording offline add {entry}{also}"
                )
            else:
                self.result["plan_updated"] = True
                notes.append(f"{_shown(self.plan_path)} now replays {self.rel} offline")
        count = self.result["interactions"]
        what = "recorded" if written else "kept (unchanged)"
        notes.insert(0, f"{count} HTTP interaction(s) {what} in {_shown(self.host)}")
        return notes

    def annotate(self, report: RunReport) -> RunReport:
        """Say in the report why the network layer is off."""
        detail = (
            f"off because of --record: real network reached, HTTP recorded into "
            f"{_shown(self.host)} (record mode {self.mode})"
        )
        layers = tuple(
            LayerStatus("network", False, detail) if layer.name == "network" else layer
            for layer in report.layers
        )
        return replace(report, layers=layers)
