from enum import StrEnum


class EndActionTypeEnum(StrEnum):
    END = "end"

    def __str__(self) -> str:
        return str(self.value)
