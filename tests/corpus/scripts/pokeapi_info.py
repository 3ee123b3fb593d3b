# corpus: pokeapi_info (json)
# pattern seen in: github.com/vishnu26r/python :: API/pokeapi.py
# our own program written for automock's corpus; no text taken from the source
"""A Pokemon's vital numbers and its abilities, or the status code when the lookup fails."""

from __future__ import annotations

import requests

API_ROOT = "https://pokeapi.co/api/v2/"


def lookup(species: str):
    reply = requests.get(f"{API_ROOT}/pokemon/{species}")
    if reply.status_code != 200:
        print(f"lookup failed with {reply.status_code}")
        return None
    return reply.json()


found = lookup("ditto")
if found:
    for label in ("name", "id", "height", "weight"):
        print(f"{label.capitalize():<10}: {found[label]}")
    for slot in found["abilities"]:
        print(f"abilities : {slot['ability']['name']}")
