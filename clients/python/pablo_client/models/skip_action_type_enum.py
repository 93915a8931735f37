from enum import StrEnum


class SkipActionTypeEnum(StrEnum):
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
