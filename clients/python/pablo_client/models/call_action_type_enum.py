from enum import StrEnum


class CallActionTypeEnum(StrEnum):
    CALL = "call"

    def __str__(self) -> str:
        return str(self.value)
