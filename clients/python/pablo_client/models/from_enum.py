from enum import StrEnum


class FromEnum(StrEnum):
    DISCARD = "discard"
    HAND = "hand"
    STOCK = "stock"

    def __str__(self) -> str:
        return str(self.value)
