"""Environment values in the shape the code's use of them needs.

A variable fetched as a URL (``requests.get(os.environ["BBC_API"] + "/news")``,
directly or through a name it is assigned to) is drafted as an
``https://<name>.example.com`` URL; one parsed with ``int(...)`` or
``float(...)`` as a number string; one compared with string literals
(``MODE == "prod"``, ``REGION in ("eu", "us")``) as the first of them, so a
check of the value passes. A variable named like an address (``*_API``,
``*_URL``, ``*_ENDPOINT``) whose use this module does not show is drafted
as a URL too: it is usually handed to a client in another module. Anything
else is left to
:func:`automock.drafting.values.plausible`, which goes by the name. The
drafted values are also what :meth:`automock.drafting._source.Module.render`
gives for ``os.environ[...]``/``os.getenv(...)``, so a stub drafted for a URL
built from the variable matches the request the program sends.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from automock.drafting._source import Module, env_read
from automock.drafting.urls import url_argument
from automock.drafting.values import plausible

__all__ = ["shaped_values"]

_NUMBER_CASTS = ("int", "float")
# named like a service's address: CATALOG_API, NEWS_URL, AUTH_ENDPOINT (its use may be elsewhere)
_URL_NAME = re.compile(r"(^|_)(url|uri|api|endpoint|base_url)$")


def _variables(node: ast.AST, aliases: dict[str, str]) -> set[str]:
    """The environment variables ``node`` is built from (reads, and names assigned from them)."""
    found: set[str] = set()
    for sub in ast.walk(node):
        read = env_read(sub)
        if read is not None:
            found.add(read[0])
        elif isinstance(sub, ast.Name) and sub.id in aliases:
            found.add(aliases[sub.id])
    return found


def _uses(module: Module, network_lines: set[int]) -> dict[str, str]:
    """Variable -> ``url``/``int``/``float`` for each variable whose use says its shape."""
    aliases: dict[str, str] = {}
    for node in module.walk():
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            found = _variables(node.value, aliases)
            if isinstance(target, ast.Name) and len(found) == 1:
                aliases[target.id] = found.pop()
    uses: dict[str, str] = {}
    for node in module.walk():
        if isinstance(node, ast.Compare):
            _compared(node, aliases, uses)
        if not isinstance(node, ast.Call):
            continue
        if isinstance(node.func, ast.Name) and node.func.id in _NUMBER_CASTS and node.args:
            for name in _variables(node.args[0], aliases):
                uses.setdefault(name, node.func.id)
        url = url_argument(node) if node.lineno in network_lines else None
        if url is not None:
            for name in _variables(url, aliases):
                uses[name] = "url"
    return uses


def _compared(node: ast.Compare, aliases: dict[str, str], uses: dict[str, str]) -> None:
    """``MODE == "prod"``, ``REGION in ("eu", "us")``: the first literal it is checked against."""
    sides = [node.left, *node.comparators]
    literals = [
        c.value
        for side in sides
        for c in (side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side])
        if isinstance(c, ast.Constant) and isinstance(c.value, str)
    ]
    if not literals:
        return
    for side in sides:
        for name in _variables(side, aliases):
            uses.setdefault(name, "=" + literals[0])


def shaped_values(
    module: Module, names: Iterable[str], network_lines: Iterable[int]
) -> dict[str, str]:
    """A drafted value for each variable in ``names`` (shaped by its use, else by its name)."""
    uses = _uses(module, set(network_lines))
    values: dict[str, str] = {}
    for name in names:
        use = uses.get(name)
        if use == "url" or (use is None and _URL_NAME.search(name.lower())):
            values[name] = f"https://{name.lower().replace('_', '-')}.example.com"
        elif use is not None and use.startswith("="):  # a value the code checks for
            values[name] = use[1:]
        elif use in _NUMBER_CASTS:
            values[name] = str(plausible(name.lower(), 0, use))
        else:
            values[name] = str(plausible(name.lower()))
    return values
