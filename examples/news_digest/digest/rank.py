"""Choosing what goes into a digest."""

import random


def dedupe(articles):
    """Keep one copy of an article a feed lists twice (feeds repeat items across pages)."""
    best = {}
    for article in articles:
        key = (article.topic, article.id)
        kept = best.get(key)
        if kept is None or article.score > kept.score:
            best[key] = article
    return list(best.values())


def featured(articles, count=3, extra=2, rng=None):
    """The best articles, with a few picked at random among the rest for variety."""
    rng = rng or random
    ordered = sorted(dedupe(articles), key=lambda a: (-a.score, a.id))
    top, rest = ordered[:count], ordered[count:]
    picked = rng.sample(rest, min(extra, len(rest)))
    return top + picked
