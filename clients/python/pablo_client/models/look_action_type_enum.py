from enum import StrEnum


class LookActionTypeEnum(StrEnum):
    LOOK = "look"

    def __str__(self) -> str:
        return str(self.value)
