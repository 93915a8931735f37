from enum import StrEnum


class PeekActionTypeEnum(StrEnum):
    PEEK = "peek"

    def __str__(self) -> str:
        return str(self.value)
