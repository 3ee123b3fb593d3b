"""Shared test configuration.

Tests import ``automock`` from the checkout. Anything that needs the network
uses a server the test starts on 127.0.0.1; nothing needs an API key.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

# An API key in the developer's environment must never turn tests into paid calls.
os.environ.pop("ANTHROPIC_API_KEY", None)


@pytest.fixture
def examples_dir() -> Path:
    return EXAMPLES
