"""news_digest: fetch the latest articles per topic, store them, print a daily digest."""
