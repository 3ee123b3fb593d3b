"""The restart of ``automock run`` reads its arguments before argparse is imported.

That quick reading (:mod:`automock.commands.restart`) keeps its own list of the
options that take a value; if it fell behind the real parser, a new option's value
would be taken for FILE, the hash seed would be guessed wrong, and every run would
quietly fall back from forking to a fresh interpreter.
"""

from __future__ import annotations

import argparse

from automock.commands import restart as _hashseed
from automock.commands.run import add_arguments


def _valued_options() -> set[str]:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return {
        option
        for action in parser._actions
        if action.option_strings and action.nargs != 0
        for option in action.option_strings
    }


def test_the_quick_reading_knows_every_option_that_takes_a_value() -> None:
    assert _valued_options() == set(_hashseed._VALUED)
