"""Scrape a few listing pages of a careers site and print what is on offer."""

import time
from datetime import date

from jobs.fetch import raw_listings
from jobs.parse import to_job

BASE = "https://careers.example.org"
PAGES = ["/jobs?team=engineering", "/jobs?team=data"]


def collect():
    jobs = []
    for page in PAGES:
        url = BASE + page
        jobs.extend(to_job(card, url) for card in raw_listings(url))
        time.sleep(1.0)  # be polite to the site
    return jobs


def main():
    jobs = collect()
    print(f"{len(jobs)} openings on {date.today():%d %b %Y}")
    for job in sorted(jobs, key=lambda j: (j.company, j.title)):
        pay = f"{job.salary_low}-{job.salary_high}" if job.salary_low else "pay not listed"
        where = "remote" if job.remote else "on site"
        print(f"  {job.company:<16} {job.title:<28} {where:<8} {pay}")
    paid = [j for j in jobs if j.salary_high]
    if paid:
        best = max(paid, key=lambda j: j.salary_high)
        print(f"best paid: {best.title} at {best.company} ({best.link})")


if __name__ == "__main__":
    main()
