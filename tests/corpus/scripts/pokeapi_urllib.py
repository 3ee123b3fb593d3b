# corpus: pokeapi_urllib (json)
# pattern seen in: github.com/phantomized-exe/Unit-3 :: Lesson5/main.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import json
import urllib.request

POKE_URL = "https://pokeapi.co/api/v2/pokemon/pikachu"

response = urllib.request.urlopen(POKE_URL)
pokemon = json.load(response)
print(pokemon["types"][0]["type"]["name"])
for ability in pokemon["abilities"]:
    print(f"Name: {ability['ability']['name']}")
for stat in pokemon["stats"]:
    print(f"Name: {stat['stat']['name']} \t Value: {stat['base_stat']}")
