from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.result_enum import ResultEnum

if TYPE_CHECKING:
    from ..models.history_player import HistoryPlayer


T = TypeVar("T", bound="HistoryGame")


@_attrs_define
class HistoryGame:
    """
    Attributes:
        id (UUID):
        ruleset (str):
        finished_at (datetime.datetime | None):
        seats (int):
        you (int): Your seat.
        result (ResultEnum): * `won` - won
            * `lost` - lost
        rank (int): Your place: winners 1, losers last, the others by their final total (lower is better).
        score (int): Your final game total (Skip-Bo: stock left).
        players (list[HistoryPlayer]):
        replay (str): The replay viewer's page of the game.
    """

    id: UUID
    ruleset: str
    finished_at: datetime.datetime | None
    seats: int
    you: int
    result: ResultEnum
    rank: int
    score: int
    players: list[HistoryPlayer]
    replay: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        ruleset = self.ruleset

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        seats = self.seats

        you = self.you

        result = self.result.value

        rank = self.rank

        score = self.score

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        replay = self.replay

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "ruleset": ruleset,
                "finished_at": finished_at,
                "seats": seats,
                "you": you,
                "result": result,
                "rank": rank,
                "score": score,
                "players": players,
                "replay": replay,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.history_player import HistoryPlayer

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        ruleset = d.pop("ruleset")

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        seats = d.pop("seats")

        you = d.pop("you")

        result = ResultEnum(d.pop("result"))

        rank = d.pop("rank")

        score = d.pop("score")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = HistoryPlayer.from_dict(players_item_data)

            players.append(players_item)

        replay = d.pop("replay")

        history_game = cls(
            id=id,
            ruleset=ruleset,
            finished_at=finished_at,
            seats=seats,
            you=you,
            result=result,
            rank=rank,
            score=score,
            players=players,
            replay=replay,
        )

        history_game.additional_properties = d
        return history_game

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
