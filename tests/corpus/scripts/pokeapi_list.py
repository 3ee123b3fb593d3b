# corpus: pokeapi_list (json)
# pattern seen in: github.com/gmelo21/College-Studies :: Python-Studies/py_class_09.py
# our own program written for automock's corpus; no text taken from the source
from __future__ import annotations

import requests

try:
    response = requests.get("https://pokeapi.co/api/v2/pokemon/")
    if response.status_code == 200:
        dictResponse = response.json()
        for item in dictResponse["results"]:
            print(f"Pokemon: {item['name'].capitalize()}")
    else:
        print("Requisition error.")
except Exception as error:
    print(f"Error: {error}")
