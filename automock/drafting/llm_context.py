"""What the analysis already knows, said for the model's prompt.

How the program reads each HTTP response (the access paths the response flow of
:mod:`automock.drafting.flow` found at each call site, with the type a use needs), the
plan's ``env`` and ``clock``, and which parsers are installed for the program (an answer
shaped for a parser that is not there helps nobody).
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterable

from automock.plan.model import Plan

__all__ = ["installed_parsers", "plan_settings", "response_reads"]

_PARSERS = (
    ("bs4", "BeautifulSoup"),
    ("lxml", "lxml (html, etree, xpath)"),
    ("html5lib", "html5lib"),
    ("xmltodict", "xmltodict"),
    ("feedparser", "feedparser"),
    ("yaml", "PyYAML"),
)
_MAX_PATHS = 40


def installed_parsers() -> str:
    """The markup and data parsers importable here, or what is not."""
    found = [label for module, label in _PARSERS if importlib.util.find_spec(module) is not None]
    stdlib = "json, xml.etree.ElementTree, html.parser, csv, re (standard library)"
    return f"{', '.join(found)}; {stdlib}" if found else f"only {stdlib}"


def _path_text(path: tuple[str, ...]) -> str:
    """``("json", "key:items", "index", "key:name")`` as ``response.json()["items"][i]["name"]``."""
    out = "response"
    for part in path:
        if part in ("json", "text", "content"):
            out += ".json()" if part == "json" else f".{part}"
        elif part.startswith("key:"):
            out += f"[{part[4:]!r}]"
        elif part == "index":
            out += "[i]"
        else:
            out += f".{part.split(':', 1)[-1]}"
    return out


def response_reads(source: str, touch_lines: Iterable[int]) -> str:
    """One block per HTTP call site: ``line L col C`` and each access path the program
    takes on its response, with the type a use needs when known. Empty when the
    analysis found no call site (or cannot parse the source)."""
    from automock.drafting._source import parse_module
    from automock.drafting.flow import ResponseFlow

    try:
        flow = ResponseFlow(parse_module(source), touch_lines)
        flow.run()
    except (SyntaxError, ValueError, RecursionError):
        return ""
    blocks = []
    for (line, col), site in sorted(flow.sites.items()):
        paths = list(flow.paths.get(site, {}))
        if not paths:
            continue
        lines = []
        for path in paths[:_MAX_PATHS]:
            hint = flow.hints.get((site, path))
            regex = flow.regexes.get((site, path))
            needs = f" (needs {hint})" if hint else ""
            needs += f" (searched with regex {regex!r})" if regex else ""
            lines.append(f"  - {_path_text(path)}{needs}")
        more = f"\n  - ... {len(paths) - _MAX_PATHS} more" if len(paths) > _MAX_PATHS else ""
        blocks.append(
            f"- the response of the call at line {line} col {col}:\n" + "\n".join(lines) + more
        )
    return "\n".join(blocks)


def plan_settings(plan: Plan) -> str:
    """The plan's ``env`` and ``clock``, as JSON."""
    return json.dumps({"env": dict(plan.env), "clock": plan.clock.to_dict()}, sort_keys=True)
