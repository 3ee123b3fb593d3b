"""Build today's news digest: fetch topics in parallel, pick articles, store and print them."""

import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

from digest.feed import FeedClient
from digest.rank import featured
from digest.store import open_store, save_digest, topic_totals

TOPICS = ["science", "climate", "space"]


def main():
    client = FeedClient("https://news.example.com/api")
    with ThreadPoolExecutor(max_workers=3) as pool:
        batches = list(pool.map(client.latest, TOPICS))
    articles = [article for batch in batches for article in batch]
    picks = featured(articles)
    digest_id = uuid.uuid4().hex[:12]
    created_at = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")
    conn = open_store()
    save_digest(conn, digest_id, created_at, picks)
    print(f"digest {digest_id} built {created_at} from {len(articles)} articles")
    for article in picks:
        print(f"  [{article.topic:<8}] {article.score:5.1f}  {article.title}")
    for topic, count, average in topic_totals(conn, digest_id):
        print(f"  {topic}: {count} picked, average score {average}")
    conn.close()


if __name__ == "__main__":
    main()
