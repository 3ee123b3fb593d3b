"""The news API: the latest articles of one topic, cached for the run."""

import logging
from dataclasses import dataclass, field
from datetime import datetime

import requests

from .http import make_session, with_retries

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Article:
    id: int
    topic: str
    title: str
    score: float
    url: str = ""
    published: str = ""


@dataclass
class FeedClient:
    base_url: str
    session: requests.Session = None
    limit: int = 5
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.base_url = self.base_url.rstrip("/")
        self.session = self.session or make_session()

    @with_retries(attempts=3)
    def _get_json(self, path, params):
        response = self.session.get(f"{self.base_url}{path}", params=params, timeout=10)
        response.raise_for_status()
        return response.json()

    def latest(self, topic):
        """The newest articles of a topic; a failing feed gives no articles, not a crash."""
        if topic in self._cache:
            return self._cache[topic]
        try:
            payload = self._get_json(f"/v1/topics/{topic}/articles", {"limit": self.limit})
        except requests.RequestException as exc:
            log.error("feed %s unavailable: %s", topic, exc)
            return []
        articles = [to_article(topic, item) for item in payload.get("articles", [])]
        self._cache[topic] = articles
        log.info("%s: %d articles", topic, len(articles))
        return articles


def to_article(topic, item):
    published = item.get("published_at") or ""
    if published:
        published = datetime.fromisoformat(published.replace("Z", "+00:00")).date().isoformat()
    return Article(
        id=int(item["id"]),
        topic=topic,
        title=" ".join(item["title"].split()),
        score=float(item["score"]),
        url=item.get("url", ""),
        published=published,
    )
