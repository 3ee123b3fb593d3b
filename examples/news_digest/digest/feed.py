"""The news API: the latest articles of one topic."""

from dataclasses import dataclass

from .http import make_session


@dataclass(frozen=True)
class Article:
    id: int
    topic: str
    title: str
    score: float


class FeedClient:
    def __init__(self, base_url, session=None):
        self.base_url = base_url.rstrip("/")
        self.session = session or make_session()

    def latest(self, topic, limit=5):
        response = self.session.get(
            f"{self.base_url}/v1/topics/{topic}/articles",
            params={"limit": limit},
            timeout=10,
        )
        response.raise_for_status()
        payload = response.json()
        return [
            Article(
                id=int(item["id"]),
                topic=topic,
                title=item["title"].strip(),
                score=float(item["score"]),
            )
            for item in payload["articles"]
        ]
