"""Schedule recurring jobs relative to now and run the ones that are due."""

import time
from datetime import datetime, timedelta

JOBS = {"backup": timedelta(hours=6), "report": timedelta(days=1), "heartbeat": timedelta(minutes=5)}


def next_runs(now: datetime) -> dict[str, datetime]:
    return {name: now + every for name, every in JOBS.items()}


def run_due(schedule: dict[str, datetime], now: datetime) -> list[str]:
    return sorted(name for name, when in schedule.items() if when <= now + timedelta(minutes=5))


def main() -> None:
    now = datetime.now()
    started = time.monotonic()
    print(f"scheduler started at {now:%Y-%m-%d %H:%M:%S}")
    schedule = next_runs(now)
    for name, when in sorted(schedule.items(), key=lambda kv: kv[1]):
        print(f"  {name:<10} next at {when.isoformat(timespec='seconds')}")
    time.sleep(2)
    print("due now:", ", ".join(run_due(schedule, datetime.now())) or "nothing")
    print(f"tick took {time.monotonic() - started:.3f}s, epoch {int(time.time())}")


if __name__ == "__main__":
    main()
