from enum import StrEnum


class ThrowActionTypeEnum(StrEnum):
    THROW = "throw"

    def __str__(self) -> str:
        return str(self.value)
