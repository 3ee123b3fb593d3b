"""Turning a listing page into Jobs: selectors, links, salaries."""

import logging
import re
from dataclasses import dataclass
from urllib.parse import urljoin

log = logging.getLogger(__name__)

_AMOUNT = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(k)?", re.IGNORECASE)


@dataclass(frozen=True)
class Job:
    title: str
    company: str
    location: str
    remote: bool
    salary_low: float | None
    salary_high: float | None
    link: str
    tags: tuple = ()

    @property
    def salary_mid(self):
        if self.salary_low is None:
            return None
        return (self.salary_low + (self.salary_high or self.salary_low)) / 2


def salary_range(text):
    """``"£40,000 - £52.5k"`` -> (40000.0, 52500.0); no figure -> (None, None)."""
    amounts = []
    for digits, thousands in _AMOUNT.findall(text or ""):
        value = float(digits.replace(",", ""))
        amounts.append(value * 1000 if thousands else value)
    if not amounts:
        return None, None
    return min(amounts), max(amounts)


def _text(card, selector, default=""):
    node = card.select_one(selector)
    return node.get_text(" ", strip=True) if node is not None else default


def parse_card(card, page_url):
    title, link = _text(card, "h2.title"), card.select_one("a.apply")
    if not title or link is None:
        return None
    location = _text(card, "span.location", "unknown")
    low, high = salary_range(_text(card, "span.salary"))
    return Job(
        title=" ".join(title.split()),
        company=_text(card, "span.company", "unknown company"),
        location=location,
        remote=any(word in location.lower() for word in ("remote", "anywhere")),
        salary_low=low,
        salary_high=high,
        link=urljoin(page_url, link["href"]),
        tags=tuple(t.get_text(strip=True).lower() for t in card.select("ul.tags li")),
    )


def jobs_on_page(fetcher, page_url):
    """Every well-formed job card on the page; broken cards are logged and skipped."""
    jobs = []
    for card in fetcher.soup(page_url).select("article.job"):
        job = parse_card(card, page_url)
        if job is None:
            log.warning("skipping a card without title or link on %s", page_url)
            continue
        jobs.append(job)
    return jobs
