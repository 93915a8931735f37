from enum import StrEnum


class SpyActionTypeEnum(StrEnum):
    SPY = "spy"

    def __str__(self) -> str:
        return str(self.value)
