# corpus: pokeapi_urllib (json)
# pattern seen in: github.com/phantomized-exe/Unit-3 :: Lesson5/main.py
# our own program written for automock's corpus; no text taken from the source
"""One Pokemon's first type, abilities and base stats, read with urllib and json.load."""

from __future__ import annotations

import json
import urllib.request

with urllib.request.urlopen("https://pokeapi.co/api/v2/pokemon/pikachu") as stream:
    card = json.load(stream)

print(card["types"][0]["type"]["name"])
names = [slot["ability"]["name"] for slot in card["abilities"]]
print("\n".join(f"Name: {name}" for name in names))
for entry in card["stats"]:
    print(f"Name: {entry['stat']['name']} \t Value: {entry['base_stat']}")
