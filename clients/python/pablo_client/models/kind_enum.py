from enum import StrEnum


class KindEnum(StrEnum):
    DEAL = "deal"
    RESHUFFLE = "reshuffle"
    START_SEAT = "start_seat"

    def __str__(self) -> str:
        return str(self.value)
