"""Fetch several GitHub-like repositories concurrently with httpx and summarise them."""

import asyncio

import httpx

BASE = "https://api.code.example.com"
REPOS = ["octo/alpha", "octo/beta", "octo/gamma"]


async def fetch_repo(client: httpx.AsyncClient, name: str) -> dict:
    resp = await client.get(f"{BASE}/repos/{name}")
    resp.raise_for_status()
    return resp.json()


async def main() -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        repos = await asyncio.gather(*(fetch_repo(client, n) for n in REPOS))
    await asyncio.sleep(0.5)
    for repo in repos:
        print(f"{repo['full_name']}: {repo['stargazers_count']} stars, updated {repo['updated_at']}")
    total = sum(r["stargazers_count"] for r in repos)
    print(f"total stars: {total}")


if __name__ == "__main__":
    asyncio.run(main())
