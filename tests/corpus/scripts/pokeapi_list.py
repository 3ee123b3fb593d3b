# corpus: pokeapi_list (json)
# pattern seen in: github.com/gmelo21/College-Studies :: Python-Studies/py_class_09.py
# our own program written for automock's corpus; no text taken from the source
"""The first page of Pokemon names, capitalised."""

from __future__ import annotations

import requests


def first_page() -> list[str]:
    reply = requests.get("https://pokeapi.co/api/v2/pokemon/")
    if reply.status_code != 200:
        raise RuntimeError(f"HTTP {reply.status_code}")
    return [entry["name"].capitalize() for entry in reply.json()["results"]]


try:
    for name in first_page():
        print(f"Pokemon: {name}")
except Exception as problem:
    print(f"Error: {problem}")
