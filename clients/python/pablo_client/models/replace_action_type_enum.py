from enum import StrEnum


class ReplaceActionTypeEnum(StrEnum):
    REPLACE = "replace"

    def __str__(self) -> str:
        return str(self.value)
