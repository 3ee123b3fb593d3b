"""Tests of the digest modules under automock: the plan of run_digest.py serves their network."""

import pytest

from digest.feed import FeedClient
from digest.rank import featured


@pytest.mark.automock(plan="run_digest.py")
def test_the_latest_articles_of_a_topic_come_from_the_plan():
    articles = FeedClient("https://news.example.com/api").latest("space")
    assert articles
    assert {a.topic for a in articles} == {"space"}
    assert all(isinstance(a.score, float) for a in articles)


@pytest.mark.automock(plan="run_digest.py", seed=3)
def test_featured_starts_with_the_best_article():
    articles = FeedClient("https://news.example.com/api").latest("science")
    picked = featured(articles, count=1)
    assert picked[0].score == max(a.score for a in articles)
    assert len(picked) == min(len(articles), 3)
