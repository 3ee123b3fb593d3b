"""Regenerate (or check) the golden plans of the examples.

Run from the repository root::

    python -m automock.drafting.goldens          # rewrite fixtures/<stem>.automock.json
    python -m automock.drafting.goldens --check  # exit 1 and list the plans that differ

The tests compare the same in-memory drafts with the checked-in files, so a
change to the offline drafter shows up as a golden diff to review.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from automock.drafting import draft
from automock.plan.io import plan_path_for, render_plan

__all__ = ["golden_texts", "main"]


def golden_texts(
    examples: str | Path = "examples", out: str | Path = "fixtures"
) -> dict[Path, str]:
    """``{plan path: text automock writes}`` for every ``*.py`` in ``examples`` (rules drafter)."""
    texts: dict[Path, str] = {}
    for source in sorted(Path(examples).glob("*.py")):
        texts[plan_path_for(source, out)] = render_plan(draft(source, drafter="rules"))
    return texts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m automock.drafting.goldens", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--examples", default="examples")
    parser.add_argument("--out", default="fixtures")
    parser.add_argument(
        "--check", action="store_true", help="compare instead of writing; exit 1 on a difference"
    )
    args = parser.parse_args(argv)
    from automock._atomic import atomic_write_text

    differ = []
    for path, text in golden_texts(args.examples, args.out).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        differ.append(path)
        if not args.check:
            atomic_write_text(path, text)
            print(f"wrote {path}")
    if args.check and differ:
        print("golden plans out of date: " + ", ".join(map(str, differ)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
