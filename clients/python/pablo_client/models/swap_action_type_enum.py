from enum import StrEnum


class SwapActionTypeEnum(StrEnum):
    SWAP = "swap"

    def __str__(self) -> str:
        return str(self.value)
