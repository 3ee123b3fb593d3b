# corpus: github_repos_list (json)
# source: (code search result; GitHub REST API usage) :: repos listing
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
from __future__ import annotations

import requests

USER = "octocat"
r = requests.get(f"https://api.github.com/users/{USER}/repos", params={"per_page": 5})
r.raise_for_status()
for repo in sorted(r.json(), key=lambda x: x["stargazers_count"], reverse=True):
    print(f"{repo['name']:<30} {repo['stargazers_count']:>6} stars  {repo['language'] or '-'}")
