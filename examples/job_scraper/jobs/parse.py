"""Turning the texts of a job card into values the report can sort and add up."""

import re
from dataclasses import dataclass
from urllib.parse import urljoin

_AMOUNT = re.compile(r"(\d[\d,]*)(?:\.\d+)?\s*(k)?", re.IGNORECASE)


@dataclass(frozen=True)
class Job:
    title: str
    company: str
    remote: bool
    salary_low: int | None
    salary_high: int | None
    link: str


def salary_range(text):
    """``"£40,000 - £52k"`` -> (40000, 52000); no figure -> (None, None)."""
    amounts = []
    for digits, thousands in _AMOUNT.findall(text or ""):
        value = int(digits.replace(",", ""))
        amounts.append(value * 1000 if thousands else value)
    if not amounts:
        return None, None
    return min(amounts), max(amounts)


def to_job(card, base_url):
    low, high = salary_range(card["salary"])
    location = card["location"].lower()
    return Job(
        title=" ".join(card["title"].split()),
        company=card["company"].strip(),
        remote="remote" in location or "anywhere" in location,
        salary_low=low,
        salary_high=high,
        link=urljoin(base_url, card["link"]),
    )
