from enum import StrEnum


class SourceEnum(StrEnum):
    DECK = "deck"
    DISCARD = "discard"

    def __str__(self) -> str:
        return str(self.value)
