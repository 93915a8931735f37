from enum import StrEnum


class AccountEventTypeEnum(StrEnum):
    GAME_FINISHED = "game_finished"
    GAME_STARTED = "game_started"
    REMATCH_OFFERED = "rematch_offered"
    TURN_TIMED_OUT = "turn_timed_out"
    YOUR_TURN = "your_turn"

    def __str__(self) -> str:
        return str(self.value)
