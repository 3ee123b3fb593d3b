"""Products as the rest of the program sees them."""

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    category: str
    price: Decimal
    in_stock: bool


def money(value):
    """A price rounded to the cent, whether it came as ``"12.5"`` or ``12.499``."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)
