"""Scrape the listing pages of a careers site and print what is on offer."""

import argparse
import logging
import os
import sys
import time
from datetime import date

from jobs.fetch import FetchError, PageFetcher
from jobs.parse import jobs_on_page
from jobs.report import summary, table, write_csv

log = logging.getLogger("jobs")

BASE = os.environ.get("JOBS_SITE", "https://careers.example.org")
TEAMS = ("engineering", "data")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default=BASE, help="the careers site")
    parser.add_argument("--team", dest="teams", action="append", help="teams to read")
    parser.add_argument("--min-pay", type=float, default=float(os.environ.get("JOBS_MIN_PAY", "0")))
    parser.add_argument("--remote-only", action="store_true")
    parser.add_argument("--csv", action="store_true", help="print CSV instead of a table")
    parser.add_argument("--delay", type=float, default=1.0, help="seconds between pages")
    return parser.parse_args(argv)


def collect(fetcher, base, teams, delay):
    """Every job of every team; a team whose page fails is reported and skipped."""
    jobs, failed = [], []
    for team in teams:
        url = f"{base}/jobs?team={team}"
        try:
            jobs.extend(jobs_on_page(fetcher, url))
        except FetchError as exc:
            log.error("could not read %s: %s", team, exc)
            failed.append(team)
        time.sleep(delay)  # be polite to the site
    return jobs, failed


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    jobs, failed = collect(PageFetcher(), args.base.rstrip("/"), args.teams or TEAMS, args.delay)
    if args.remote_only:
        jobs = [job for job in jobs if job.remote]
    if args.min_pay:
        jobs = [job for job in jobs if (job.salary_high or 0) >= args.min_pay]
    if args.csv:
        write_csv(jobs)
        return 0
    print(f"{len(jobs)} openings on {date.today():%d %b %Y}")
    table(jobs)
    for line in summary(jobs):
        print(line)
    if failed:
        print(f"(could not read: {', '.join(failed)})", file=sys.stderr)
    return 0 if jobs or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
