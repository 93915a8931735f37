from enum import StrEnum


class DiscardActionTypeEnum(StrEnum):
    DISCARD = "discard"

    def __str__(self) -> str:
        return str(self.value)
