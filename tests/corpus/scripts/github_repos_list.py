# corpus: github_repos_list (json)
# pattern seen in: (code search result; GitHub REST API usage) :: repos listing
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

USER = "octocat"
r = requests.get(f"https://api.github.com/users/{USER}/repos", params={"per_page": 5})
r.raise_for_status()
for repo in sorted(r.json(), key=lambda x: x["stargazers_count"], reverse=True):
    print(f"{repo['name']:<30} {repo['stargazers_count']:>6} stars  {repo['language'] or '-'}")
