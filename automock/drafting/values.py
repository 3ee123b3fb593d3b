"""Plausible, deterministic values for a JSON key or SQL column, chosen by its name.

Usually right, a reasonable mistake if not: ``*_at``/``date``/``updated`` get
ISO dates, ``timestamp``/``dt``/``*_utc`` seconds since the epoch, ``id``/``*_id``/``count``/``total_*``/``population`` integers, ``year`` a four-digit year, ``tmn``/``tmx`` (a forecast's lowest and highest) whole degrees, ``uuid`` a UUID, ``unit`` a unit's word, ``url`` URLs,
``temp``/``price``/``windspeed``, a quote's ``mid``/``bid``/``close`` and currency codes (``usd``, ``CHF``) floats, ``score``/``points``/``karma``/``wins``
integers, ``rating``/``elo`` a rating in the thousands, ``eye_color`` a colour word, ``address`` a
number and a street, ``purpose`` a sentence, ``wendu``/``shidu`` (temperature and humidity in pinyin) floats, a
humidity written as text a percentage, ``is_*``/``has_*`` booleans, ``description`` a phrase, ``fact``/``joke``/``text``/``setup`` a
sentence, ``author``/``first``/``last`` a capitalised person's name, anything else
a short string. A type seen in the code (a ``:.1f`` format, arithmetic, a
comparison with a number) wins over the name. The same (name, index) always
gives the same value, so drafts are reproducible byte for byte.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

__all__ = ["as_text", "headline", "plausible", "sample_key", "sentence", "sql_type_for", "word"]

_WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta")
_CITIES = ("Lisbon", "Oslo", "Nairobi", "Lima", "Osaka", "Perth")
_DESCRIPTIONS = ("light rain", "clear sky", "scattered clouds", "overcast", "fog", "snow")
_FIXED = {"status": "ok", "state": "ok", "currency": "EUR"}  # one value fits every use
# a title or a headline is a few words on a real page or in a real feed, never one
_HEADLINES = (
    "Harbour bridge reopens after repairs",
    "Library extends its weekend hours",
    "New tram line opens downtown",
    "Small bakery wins regional prize",
    "Storm delays the morning ferries",
    "Museum adds evening tours",
)
_ACCOUNTS = ("checking", "groceries", "rent", "salary", "travel", "utilities")

_DATE_RE = re.compile(
    r"(^|_)(at|date|day|updated|created|modified|timestamp|time|on|when|since|until|launch"
    r"|published|birthday|birthdate|deadline|expires|expiry)$"
)
_INT_RE = re.compile(
    r"(^|_)(id|count|total|size|age|number|num|qty|quantity|port|rank|index|page|limit|offset"
    r"|votes|stars|length|duration|seconds|minutes|hours|days|version|code|n|population|followers"
    r"|following|subscribers|views|likes|descendants|passengers|score|points|karma|ups|downs|upvotes"
    r"|downvotes|forks|watchers|repos|gists|wins|losses|draws|ties|games|played|goals|assists"
    r"|matches|titles|medals|comments|replies|reviews|episodes|seasons|aqi|pm25|pm10|pm2_5)$"
    r"|^(n|num|number|total|count)_"
)
# a player's or a team's rating is a few hundred to a few thousand points (Elo-like)
_RATING_RE = re.compile(r"(^|_)(rating|elo)$")
# a colour a person describes (``eye_color``, ``colour``): a plain colour word
_COLOUR_RE = re.compile(r"^((eye|hair|skin|fur|coat|car|body)_)?colou?r$")
_COLOURS = ("brown", "blue", "green", "grey", "black", "red")
# a postal address: a number and a street, as people write it
_ADDRESS_RE = re.compile(
    r"^(street_|home_|postal_|mailing_|billing_|shipping_)?address(_line_?1|1)?$|^street$"
)
_STREETS = ("Harbour Road", "Mill Lane", "Station Street", "Elm Avenue", "Quay Street", "Park Row")
_FLOAT_RE = re.compile(
    r"(^|_)(temp|temperature|price|amount|balance|lat|latitude|lon|lng|longitude|rate|ratio"
    r"|pct|percent|speed|humidity|pressure|weight|height|value|cost|avg|mean|feels_like|wind"
    r"|windspeed|windgust|gust|volume|change|wendu|temperatura|temperatur|shidu|humedad|umidade"
    r"|feuchte|luftfeuchtigkeit|mid|bid|ask|buy|sell|close|high|low|vol)$"
    r"|^(temp|temperature)_(min|max)$|^(min|max)_temp(erature)?$"
)
# a calendar year (``year``, ``birth_year``, ``yr``): four digits, as people write one
_YEAR_RE = re.compile(r"(^|_)(year|yr)$")
# a day's lowest or highest temperature in a forecast's short names: whole degrees
_EXTREME_RE = re.compile(r"^(tmn|tmx|tmin|tmax|mintemp|maxtemp)$")
# the unit a quantity is given in: a unit's word, lower case as APIs write it
_UNIT_RE = re.compile(r"(^|_)units?$")
# a relative humidity written as text is a percentage (``"38%"``), in any language's word
_HUMIDITY_RE = re.compile(r"(^|_)(humidity|shidu|humedad|umidade|feuchte|luftfeuchtigkeit)$")
# a key that is a currency code holds an amount in it (``{"bitcoin": {"usd": ...}}``,
# ``{"rates": {"CHF": ...}}``): the codes people key prices and rates by
_CURRENCIES = frozenset(
    [
        "usd",
        "eur",
        "gbp",
        "jpy",
        "chf",
        "cad",
        "aud",
        "nzd",
        "cny",
        "inr",
        "rub",
        "brl",
        "krw",
        "sek",
        "nok",
        "dkk",
        "pln",
        "czk",
        "huf",
        "try",
        "mxn",
        "zar",
        "sgd",
        "hkd",
        "ils",
        "thb",
        "uah",
        "btc",
        "eth",
        "usdt",
    ]
)
# seconds since the epoch, as APIs name them (``timestamp``, ``dt``, ``created_utc``)
_UNIX_RE = re.compile(r"(^|_)(timestamp|ts|epoch|unix|utc)$|^dt$")
_COUNTRIES = ("Portugal", "Norway", "Kenya", "Peru", "Japan", "Australia")
_URL_RE = re.compile(r"(^|_)(url|uri|href|link|homepage|avatar)$")
_BOOL_RE = re.compile(
    r"^(is|has|can|should|was)_|(^|_)(enabled|active|ok|success|done|private|fork|verified)$"
)
# a sentence of the API's own text: a fact, a joke, a quote, an abstract
_SENTENCE_RE = re.compile(
    r"(^|_)(fact|joke|setup|punchline|delivery|quote|advice|explanation|extract|plot|overview|bio"
    r"|synopsis|excerpt|tip|definition|text|content|summary|abstract|lyrics|answer|question"
    r"|purpose|reason|motto|slogan|tagline|instructions|indications|warnings|usage)$"
)
_SENTENCES = (
    "The river turned silver just before the storm arrived.",
    "Every lighthouse on this coast was built by the same two brothers.",
    "A single bee visits thousands of flowers in one afternoon.",
    "The old library keeps its rarest maps in a cold room.",
    "Most of the town still walks to the market on Saturdays.",
    "The first train of the morning leaves before sunrise.",
)
# a person's name, or a part of it, capitalised as people write it
_PERSON_RE = re.compile(
    r"^(author|artist|director|writer|creator|composer|speaker|character|author_name"
    r"|realname|real_name)$"
)
_PEOPLE = ("Ada Moreno", "Tomas Berg", "Lena Hartwell", "Omar Quist", "Ines Ferro", "Mara Lind")
_FIRST_RE = re.compile(r"^(first|first_name|firstname|given_name|forename)$")
_LAST_RE = re.compile(r"^(last|last_name|lastname|surname|family_name)$")
_FIRSTS = ("Amelie", "Tomas", "Nadia", "Bruno", "Keiko", "Lars")
_LASTS = ("Berger", "Lindqvist", "Moreau", "Okafor", "Tanaka", "Silva")
# objects keyed by currency code (``{"rates": {"EUR": 0.91}}``)
_KEYED_BY_CURRENCY = re.compile(
    r"(^|_)(rates|conversion_rates|exchange_rates|quotes|bpi|prices|currencies|fx)$"
)
_TEXT_RE = re.compile(
    r"(^|_)(description|summary|text|message|body|content|comment|note|notes|conditions|weather)$"
)


def _pick(options: tuple[str, ...], name: str, index: int) -> str:
    digest = int(hashlib.sha256(name.encode()).hexdigest()[:8], 16)
    return options[(digest + index) % len(options)]


def _small_int(name: str, index: int, low: int, high: int) -> int:
    digest = int(hashlib.sha256(f"{name}:{index}".encode()).hexdigest()[:8], 16)
    return low + digest % (high - low + 1)


def _uuid(name: str, index: int) -> str:
    digest = hashlib.sha256(f"{name}:{index}".encode()).hexdigest()
    return f"{digest[:8]}-{digest[8:12]}-4{digest[13:16]}-a{digest[17:20]}-{digest[20:32]}"


def plausible(name: str, index: int = 0, hint: str | None = None) -> Any:
    """A value for a field called ``name`` (the ``index``-th of a list)."""
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower().strip("_")
    if hint == "float" or (hint is None and (_FLOAT_RE.search(key) or key in _CURRENCIES)):
        return round(_small_int(key, index, 50, 350) / 10, 1)
    if hint in (None, "int") and _YEAR_RE.search(key):
        return _small_int(key, index, 1950, 2023)
    if hint in (None, "int") and _EXTREME_RE.match(key):
        return _small_int(key, index, 4, 31)
    if hint in (None, "int") and _RATING_RE.search(key):
        return _small_int(key, index, 1000, 2400)
    if hint == "int" or (hint is None and _INT_RE.search(key)):
        return (
            index + 1
            if key in ("id", "index", "rank", "page") or key.endswith("_id")
            else _small_int(key, index, 2, 99)
        )
    if hint == "bool" or (hint is None and _BOOL_RE.search(key)):
        return index % 2 == 0
    if hint == "list":
        return []
    if hint == "dict":
        return {}
    if hint is None and _UNIX_RE.search(key):
        return 1702000000 + _small_int(key, index, 0, 86399)
    if _DATE_RE.search(key):
        day = 1 + (_small_int(key, index, 0, 27))
        if key.endswith(("date", "_on", "day")) or key == "date":
            return f"2023-12-{day:02d}"
        return f"2023-12-{day:02d}T{_small_int(key, index, 0, 23):02d}:00:00Z"
    if _URL_RE.search(key):
        return f"https://example.com/{key.replace('_', '-')}/{index + 1}"
    if _SENTENCE_RE.search(key) and hint in (None, "str"):
        return _pick(_SENTENCES, key, index)
    if _TEXT_RE.search(key):
        return _pick(_DESCRIPTIONS, key, index)
    named = _named(key, index)
    if named is not None:
        return named
    return f"{key.replace('_', '-') or 'item'}-{_pick(_WORDS, key, index)}"


def _named(key: str, index: int) -> Any:
    """The value a key's name alone gives (a person, a colour, a city, a UUID...), or None."""
    if _PERSON_RE.match(key):
        return _pick(_PEOPLE, key, index)
    if _FIRST_RE.match(key):
        return _pick(_FIRSTS, key, index)
    if _LAST_RE.match(key):
        return _pick(_LASTS, key, index)
    if _COLOUR_RE.match(key):
        return _pick(_COLOURS, key, index)
    if _ADDRESS_RE.match(key):
        return f"{_small_int(key, index, 2, 180)} {_pick(_STREETS, key, index)}"
    if key in ("location", "place") or re.search(r"(^|_)(city|town)$", key):
        return _pick(_CITIES, key, index)
    if key in ("account", "category"):
        return _pick(_ACCOUNTS, key, index)
    if _UNIT_RE.search(key):
        return "metric" if key.endswith("units") else "celsius"
    if key == "uuid" or key.endswith("_uuid"):
        return _uuid(key, index)
    if key == "email":
        return f"user{index + 1}@example.com"
    if key == "full_name":
        return f"example/{_pick(_WORDS, key, index)}"
    if key in ("country", "country_name"):
        return _pick(_COUNTRIES, key, index)
    if key in ("title", "headline", "heading") or key.endswith(("_title", "_headline")):
        return _pick(_HEADLINES, key, index)
    if key in ("login", "username", "user") or re.search(r"(^|_)name$", key):
        return _pick(_WORDS, key, index).capitalize()
    if key in _FIXED:
        return _FIXED[key]
    return None


def as_text(name: str, value: Any) -> str:
    """``value`` of the key ``name`` as the text an API writes it: a humidity as a
    percentage (``38%``), anything else as ``str`` gives it."""
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower().strip("_")
    if _HUMIDITY_RE.search(key) and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{round(value * 2.5)}%"
    return str(value)


def word(name: str, index: int = 0) -> str:
    """A capitalised word, as a link's or a heading's text (``Gamma``)."""
    return _pick(_WORDS, name, index).capitalize()


def headline(name: str, index: int = 0) -> str:
    """A few words, as a title's or a heading's text (``New tram line opens downtown``)."""
    return _pick(_HEADLINES, name, index)


def sentence(name: str, index: int = 0) -> str:
    """A sentence, as a paragraph's text."""
    return _pick(_SENTENCES, name, index)


def sample_key(name: str) -> str:
    """A key of an object called ``name`` whose keys are data, not fields: a currency code
    for rates and prices, else ``example``."""
    key = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower().strip("_")
    return "EUR" if _KEYED_BY_CURRENCY.search(key) else "example"


def sql_type_for(column: str) -> str:
    """An SQLite column type for a column known only by name."""
    value = plausible(column)
    if isinstance(value, bool | int):
        return "INTEGER"
    if isinstance(value, float):
        return "REAL"
    return "TEXT"
