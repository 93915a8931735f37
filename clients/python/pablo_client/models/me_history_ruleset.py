from enum import StrEnum


class MeHistoryRuleset(StrEnum):
    CABO = "cabo"
    PABLO = "pablo"
    PABLO_50 = "pablo-50"
    SKIPBO = "skipbo"
    TAMALOU = "tamalou"

    def __str__(self) -> str:
        return str(self.value)
