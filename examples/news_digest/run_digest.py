"""Build today's news digest: fetch topics in parallel, pick articles, store and print them."""

import argparse
import logging
import os
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import datetime, timezone

from digest.feed import FeedClient
from digest.rank import featured
from digest.store import digest_count, open_store, save_digest, topic_totals

log = logging.getLogger("digest")

DEFAULT_TOPICS = "science,climate,space"


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--api", default=os.environ.get("NEWS_API", "https://news.example.com/api"))
    parser.add_argument("--topics", default=os.environ.get("DIGEST_TOPICS", DEFAULT_TOPICS))
    parser.add_argument("--db", default=os.environ.get("DIGEST_DB", "digest.db"))
    parser.add_argument("--picks", type=int, default=int(os.environ.get("DIGEST_PICKS", "3")))
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args(argv)


def fetch_all(client, topics, workers):
    """Every topic's articles, fetched in parallel, in the order the topics were given."""
    found = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(client.latest, topic): topic for topic in topics}
        for future in as_completed(futures):
            found[futures[future]] = future.result()
    return [article for topic in topics for article in found[topic]]


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    topics = [t.strip() for t in args.topics.split(",") if t.strip()]
    client = FeedClient(args.api)
    articles = fetch_all(client, topics, args.workers)
    if not articles:
        print("no articles today; nothing to digest", file=sys.stderr)
        return 1
    picks = featured(articles, count=args.picks)
    digest_id = uuid.uuid4().hex[:12]
    created_at = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")
    conn = open_store(args.db)
    try:
        save_digest(conn, digest_id, created_at, len(articles), picks)
        print(f"digest {digest_id} built {created_at} from {len(articles)} articles")
        for article in picks:
            when = f" ({article.published})" if article.published else ""
            print(f"  [{article.topic:<8}] {article.score:5.1f}  {article.title}{when}")
        for topic, count, average in topic_totals(conn, digest_id):
            print(f"  {topic}: {count} picked, average score {average}")
        print(f"{digest_count(conn)} digest(s) stored in {args.db}")
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
