"""Settings from the environment, each with a fallback that works on a laptop."""

import os
from dataclasses import dataclass

DEFAULT_API = "https://catalog.example.com"


def _int(name, fallback):
    raw = os.environ.get(name, "")
    try:
        return int(raw) if raw else fallback
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, got {raw!r}") from None


@dataclass(frozen=True)
class Settings:
    api: str
    user: str
    password: str
    page_size: int
    max_pages: int
    currency: str


def load_settings():
    return Settings(
        api=os.environ["CATALOG_API"].rstrip("/") if "CATALOG_API" in os.environ else DEFAULT_API,
        user=os.environ.get("CATALOG_USER", "sync-bot"),
        password=os.environ.get("CATALOG_PASSWORD", "dev-password"),
        page_size=_int("CATALOG_PAGE_SIZE", 100),
        max_pages=_int("CATALOG_MAX_PAGES", 50),
        currency=os.environ.get("CATALOG_CURRENCY", "EUR"),
    )
