# corpus: github_repos_list (json)
# pattern seen in: (code search result; GitHub REST API usage) :: repos listing
# our own program written for automock's corpus; no text taken from the source
"""A user's repositories, most starred first, as a small table."""

from __future__ import annotations

import requests

OWNER = "octocat"


def repositories(owner: str) -> list[dict]:
    reply = requests.get(f"https://api.github.com/users/{owner}/repos", params={"per_page": 5})
    reply.raise_for_status()
    return reply.json()


ranked = sorted(repositories(OWNER), key=lambda r: r["stargazers_count"], reverse=True)
for repo in ranked:
    language = repo["language"] or "-"
    print(f"{repo['name']:<30} {repo['stargazers_count']:>6} stars  {language}")
