"""Printing what was found: a table, a CSV, and a few figures."""

import csv
import statistics
import sys


def _pay(job):
    if job.salary_low is None:
        return "pay not listed"
    if job.salary_high == job.salary_low:
        return f"{job.salary_low:,.0f}"
    return f"{job.salary_low:,.0f}-{job.salary_high:,.0f}"


def table(jobs, out=sys.stdout):
    for job in sorted(jobs, key=lambda j: (j.company.lower(), j.title)):
        where = "remote" if job.remote else "on site"
        print(f"  {job.company:<16.16} {job.title:<28.28} {where:<8} {_pay(job)}", file=out)


def write_csv(jobs, out=sys.stdout):
    writer = csv.writer(out)
    writer.writerow(["company", "title", "location", "remote", "salary_low", "salary_high", "link"])
    for job in jobs:
        writer.writerow(
            [job.company, job.title, job.location, job.remote, job.salary_low, job.salary_high, job.link]
        )


def summary(jobs):
    paid = [job for job in jobs if job.salary_mid is not None]
    lines = [f"{sum(j.remote for j in jobs)} of {len(jobs)} remote"]
    if paid:
        lines.append(f"median pay {statistics.median(j.salary_mid for j in paid):,.0f}")
        best = max(paid, key=lambda j: j.salary_high)
        lines.append(f"best paid: {best.title} at {best.company} ({best.link})")
    return lines
