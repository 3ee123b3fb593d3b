"""Choosing what goes into a digest."""

import random


def featured(articles, count=3, rng=None):
    """The best articles, with a few picked at random among the rest for variety."""
    rng = rng or random
    ordered = sorted(articles, key=lambda a: a.score, reverse=True)
    top, rest = ordered[:count], ordered[count:]
    extra = rng.sample(rest, min(2, len(rest)))
    return top + extra
