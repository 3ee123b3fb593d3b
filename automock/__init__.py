"""automock: find what makes Python code nondeterministic, mock it, run it deterministically.

The public API is imported lazily (PEP 562) so ``import automock`` and the
pytest plugin stay cheap; heavy dependencies (libcst, anthropic, hypothesis)
load only when the function that needs them is called.

``__all__`` names the whole API; ``dir(automock)`` lists only what is already
loaded (the names resolved so far, and those whose module is imported), so tools
that enumerate every loaded module's attributes (freezegun's ``start()``,
debuggers, ``inspect``) never import the scanner, the sandbox or their dependencies.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: `import automock` (the CLI, the plugin) stays cheap
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    # errors
    "AutomockError": "automock.errors",
    "InputError": "automock.errors",
    "PlanError": "automock.errors",
    "DraftError": "automock.errors",
    "SandboxError": "automock.errors",
    "UnmockedAccessError": "automock.errors",
    "MissingExtraError": "automock.errors",
    # scan
    "scan": "automock.analysis.scanner",
    "ScanResult": "automock.analysis.model",
    "FileScan": "automock.analysis.model",
    "Touchpoint": "automock.analysis.model",
    # plan
    "Plan": "automock.plan.model",
    "PlanEntry": "automock.plan.model",
    "HttpStub": "automock.plan.model",
    "DatabaseFixture": "automock.plan.model",
    "load_plan": "automock.plan.io",
    "save_plan": "automock.plan.io",
    # drafting
    "draft": "automock.drafting",
    "prepare": "automock.refinement",
    "Prepared": "automock.refinement",
    # runtime (context managers + decorators)
    "deterministic": "automock.runtime",
    "frozen_clock": "automock.runtime.clock",
    "seeded_random": "automock.runtime.entropy",
    "mocked_network": "automock.runtime.http",
    "http": "automock.runtime.http_stubs",
    "faked_databases": "automock.runtime.databases",
    # sandbox
    "run_file": "automock.pipeline.run",
    "run_source": "automock.pipeline.run",
    "RunReport": "automock.report",
    "execute_many": "automock.sandbox.batch.pool",
    "amplify_many": "automock.pipeline.amplify",
    "select_many": "automock.pipeline.select",
    "AmplifiedResult": "automock.pipeline.amplify",
    "pass_at_k": "automock.sandbox.batch.passk",
    "Candidate": "automock.sandbox.child.candidate",
    "CandidateResult": "automock.sandbox.batch.task",
    "Limits": "automock.sandbox.kernel.isolation",
    "Status": "automock.sandbox.child.status",
    # properties
    "properties": "automock.properties",
}

# literal, so type checkers see what is exported (tests keep it equal to _EXPORTS)
__all__ = [
    "AmplifiedResult",
    "AutomockError",
    "Candidate",
    "CandidateResult",
    "DatabaseFixture",
    "DraftError",
    "FileScan",
    "HttpStub",
    "InputError",
    "Limits",
    "MissingExtraError",
    "Plan",
    "PlanEntry",
    "PlanError",
    "Prepared",
    "RunReport",
    "SandboxError",
    "ScanResult",
    "Status",
    "Touchpoint",
    "UnmockedAccessError",
    "__version__",
    "amplify_many",
    "deterministic",
    "draft",
    "execute_many",
    "faked_databases",
    "frozen_clock",
    "http",
    "load_plan",
    "mocked_network",
    "pass_at_k",
    "prepare",
    "properties",
    "run_file",
    "run_source",
    "save_plan",
    "scan",
    "seeded_random",
    "select_many",
]

if TYPE_CHECKING:  # pragma: no cover
    from automock import properties as properties
    from automock.analysis.model import FileScan, ScanResult, Touchpoint
    from automock.analysis.scanner import scan
    from automock.drafting import draft
    from automock.errors import (
        AutomockError,
        DraftError,
        InputError,
        MissingExtraError,
        PlanError,
        SandboxError,
        UnmockedAccessError,
    )
    from automock.pipeline.amplify import AmplifiedResult, amplify_many
    from automock.pipeline.run import run_file, run_source
    from automock.pipeline.select import select_many
    from automock.plan.io import load_plan, save_plan
    from automock.plan.model import DatabaseFixture, HttpStub, Plan, PlanEntry
    from automock.refinement import Prepared, prepare
    from automock.report import RunReport
    from automock.runtime import deterministic
    from automock.runtime.clock import frozen_clock
    from automock.runtime.databases import faked_databases
    from automock.runtime.entropy import seeded_random
    from automock.runtime.http import mocked_network
    from automock.runtime.http_stubs import http
    from automock.sandbox.batch.passk import pass_at_k
    from automock.sandbox.batch.pool import execute_many
    from automock.sandbox.batch.task import CandidateResult
    from automock.sandbox.child.candidate import Candidate
    from automock.sandbox.child.status import Status
    from automock.sandbox.kernel.isolation import Limits


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'automock' has no attribute {name!r}")
    import importlib  # here: the CLI imports this package first thing

    module = importlib.import_module(module_name)
    value = module if name == "properties" else getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """What is here without importing anything: never the lazy exports not loaded yet."""
    import sys

    loaded = [name for name, module in _EXPORTS.items() if module in sys.modules]
    return sorted({*globals(), *loaded})
