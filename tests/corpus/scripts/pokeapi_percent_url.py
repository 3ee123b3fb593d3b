# corpus: pokeapi_percent_url (json)
# source: (code search result; PokeAPI %-formatted URLs) :: getPokemon
# licence: reconstruction of the real pattern (licence not stated; not copied verbatim)
# held out: added after the drafter work, run once without tuning
import requests


def getSpecies(pokemon):
    url = "https://pokeapi.co/api/v2/pokemon-species/%s" % (pokemon)
    try:
        response = requests.get(url).json()
        print("species color:", response["color"]["name"])
    except requests.exceptions.RequestException as e:
        print("Error: %s" % (e))


getSpecies("ditto")
