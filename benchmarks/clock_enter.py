"""Enter+exit cost of a frozen clock: freezegun vs time-machine vs automock's frozen_clock.

freezegun's ``start()`` walks every loaded module to swap ``datetime``/``time``
references, so its cost grows with the number of modules; time-machine
swaps C function pointers. The script imports a typical set of libraries
first (so freezegun has a realistic number of modules to scan), then times
N enter+exit pairs of each in the same run and prints the ratio.

Run: ``python benchmarks/clock_enter.py [N]``
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._timing import per_call_us as _per_call_us

INSTANT = "2024-01-01T00:00:00+00:00"


def main(argv: list[str]) -> int:
    n = int(argv[0]) if argv else 200
    import json  # noqa: F401 - a realistic module set for freezegun to scan
    import sqlite3  # noqa: F401

    import freezegun
    import httpx  # noqa: F401
    import requests  # noqa: F401
    import time_machine

    from automock.runtime.clock import frozen_clock

    def freezegun_pair() -> None:
        freezer = freezegun.freeze_time(INSTANT)
        freezer.start()
        freezer.stop()

    def time_machine_pair() -> None:
        traveller = time_machine.travel(INSTANT, tick=False)
        traveller.start()
        traveller.stop()

    def automock_pair() -> None:
        with frozen_clock(INSTANT):
            pass

    fg = _per_call_us(freezegun_pair, n)
    tm = _per_call_us(time_machine_pair, n)
    am = _per_call_us(automock_pair, n)
    print(f"modules loaded: {len(sys.modules)}; {n} enter+exit pairs each (best of 3)")
    print(f"freezegun     freeze_time start+stop : {fg:10.1f} us")
    print(f"time-machine  travel start+stop      : {tm:10.1f} us")
    print(f"automock      frozen_clock enter+exit: {am:10.1f} us  (time-machine + virtual clock)")
    print(f"ratio freezegun / time-machine       : {fg / tm:10.0f}x")
    print(f"ratio freezegun / frozen_clock       : {fg / am:10.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
