"""Rebuild the drafting corpus directory from fetched repositories.

The programs' sources are not in this repository (they are other people's code);
the manifests say where each came from. A session that finds the corpus directory
gone fetches each manifest repository (the ``fetch`` tool puts a bare mirror at
``/work/.mirror/<owner>+<name>/repo``) and then runs

    python benchmarks/drafting_corpus/restore.py --mirrors /work/.mirror --out /work/corpus/net

For each entry it writes ``<out>/<id>/<entry>`` from ``git show COMMIT:PATH`` and the
sibling modules and packages the entry imports (below its folder in the repository,
followed transitively). The hand plans are committed (``hand/<id>.json``, our own words) and
``drafting_oos.py`` reads them from there. Entries whose mirror or commit is missing are
listed and skipped; nothing is fetched from the network.
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

HERE = Path(__file__).resolve().parent


def _entries(ids: set[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for manifest in sorted(HERE.glob("manifest*.json")):
        rows += json.loads(manifest.read_text(encoding="utf-8"))
    return [e for e in rows if not ids or e["id"] in ids]


def _show(git_dir: Path, commit: str, path: str) -> bytes | None:
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "show", f"{commit}:{path}"],
        capture_output=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


def _local_imports(source: bytes) -> set[str]:
    """Dotted module names the file imports (absolute, or relative at level 1)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level <= 1:
            if node.module:
                names.add(node.module)
                # `from pkg import mod` may name a submodule
                names |= {f"{node.module}.{alias.name}" for alias in node.names}
            elif node.level == 1:
                names |= {alias.name for alias in node.names}
    return names


def _candidates(module: str) -> list[str]:
    """Paths (relative to the entry's folder) a dotted module may live at, packages'
    ``__init__.py`` included: ``a.b`` -> ``a/__init__.py``, ``a/b.py``, ``a/b/__init__.py``."""
    parts = module.split(".")
    paths = ["/".join(parts[:i]) + "/__init__.py" for i in range(1, len(parts))]
    return [*paths, "/".join(parts) + ".py", "/".join(parts) + "/__init__.py"]


def restore(entry: dict[str, Any], mirrors: Path, out: Path) -> str:
    """Write one program's folder; returns "" or why it could not."""
    git_dir = mirrors / entry["repo"].replace("/", "+") / "repo"
    if (git_dir / ".git").is_dir():  # some snapshots arrive as a work tree
        git_dir = git_dir / ".git"
    if not git_dir.is_dir():
        return f"no mirror at {git_dir} (fetch github:{entry['repo']})"
    folder = out / entry["id"]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    base = PurePosixPath(entry["path"]).parent
    todo, seen = [(entry["path"], entry["entry"])], set()
    while todo:
        path, name = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        data = _show(git_dir, entry["commit"], path)
        if data is None:
            if path == entry["path"]:
                return f"{entry['commit'][:12]}:{path} is not in the mirror"
            continue
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
        for module in _local_imports(data):
            todo += [(str(base / rel), rel) for rel in _candidates(module)]
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--ids", nargs="*", default=[])
    args = parser.parse_args(argv)
    missing = 0
    for entry in _entries(set(args.ids)):
        why = restore(entry, args.mirrors, args.out)
        if why:
            missing += 1
            print(f"{entry['id']}: {why}", file=sys.stderr)
    print(f"restored {len(_entries(set(args.ids))) - missing}, missing {missing}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
