from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.status_enum import StatusEnum
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_game_options import PlayerGameOptions
    from ..models.player_game_result_type_0 import PlayerGameResultType0
    from ..models.seat import Seat


T = TypeVar("T", bound="PlayerGame")


@_attrs_define
class PlayerGame:
    """
    Attributes:
        id (UUID):
        ruleset (str):
        status (StatusEnum): * `waiting` - waiting
            * `active` - active
            * `finished` - finished
            * `aborted` - aborted
        version (int):
        seats (int):
        options (PlayerGameOptions):
        turn_timeout (int):
        players (list[Seat]):
        you (int | None):
        result (None | PlayerGameResultType0): {"winners", "losers"} or null.
        created_at (datetime.datetime):
        private (bool): Listed to its players only; joined by invite.
        place (int | None): The player's place in it, of `seats`: 1 for the best; ties share a place and the next skips
            (1, 2, 2, 4). Every finished game has one, whether its rules name a loser or not.
        tied (bool): Another player shares that place.
        points (int | None): The player's final count as the ruleset counts it (Skip-Bo: cards left in the stock pile;
            the Pablo family: the game's total, lower is better); null where none.
        invite (str | Unset): A private game's invite token, shown to its players only (the table's link:
            /play/{id}/?invite=<token>).
        rematch (None | Unset | UUID): Shown to its players once it is finished: the id of its rematch, or null.
    """

    id: UUID
    ruleset: str
    status: StatusEnum
    version: int
    seats: int
    options: PlayerGameOptions
    turn_timeout: int
    players: list[Seat]
    you: int | None
    result: None | PlayerGameResultType0
    created_at: datetime.datetime
    private: bool
    place: int | None
    tied: bool
    points: int | None
    invite: str | Unset = UNSET
    rematch: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.player_game_result_type_0 import PlayerGameResultType0

        id = str(self.id)

        ruleset = self.ruleset

        status = self.status.value

        version = self.version

        seats = self.seats

        options = self.options.to_dict()

        turn_timeout = self.turn_timeout

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        you: int | None
        you = self.you

        result: dict[str, Any] | None
        if isinstance(self.result, PlayerGameResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        created_at = self.created_at.isoformat()

        private = self.private

        place: int | None
        place = self.place

        tied = self.tied

        points: int | None
        points = self.points

        invite = self.invite

        rematch: None | str | Unset
        if isinstance(self.rematch, Unset):
            rematch = UNSET
        elif isinstance(self.rematch, UUID):
            rematch = str(self.rematch)
        else:
            rematch = self.rematch

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "ruleset": ruleset,
                "status": status,
                "version": version,
                "seats": seats,
                "options": options,
                "turn_timeout": turn_timeout,
                "players": players,
                "you": you,
                "result": result,
                "created_at": created_at,
                "private": private,
                "place": place,
                "tied": tied,
                "points": points,
            }
        )
        if invite is not UNSET:
            field_dict["invite"] = invite
        if rematch is not UNSET:
            field_dict["rematch"] = rematch

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.player_game_options import PlayerGameOptions
        from ..models.player_game_result_type_0 import PlayerGameResultType0
        from ..models.seat import Seat

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        ruleset = d.pop("ruleset")

        status = StatusEnum(d.pop("status"))

        version = d.pop("version")

        seats = d.pop("seats")

        options = PlayerGameOptions.from_dict(d.pop("options"))

        turn_timeout = d.pop("turn_timeout")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Seat.from_dict(players_item_data)

            players.append(players_item)

        def _parse_you(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        you = _parse_you(d.pop("you"))

        def _parse_result(data: object) -> None | PlayerGameResultType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = PlayerGameResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PlayerGameResultType0, data)

        result = _parse_result(d.pop("result"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        private = d.pop("private")

        def _parse_place(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        place = _parse_place(d.pop("place"))

        tied = d.pop("tied")

        def _parse_points(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        points = _parse_points(d.pop("points"))

        invite = d.pop("invite", UNSET)

        def _parse_rematch(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                rematch_type_0 = UUID(data)

                return rematch_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        rematch = _parse_rematch(d.pop("rematch", UNSET))

        player_game = cls(
            id=id,
            ruleset=ruleset,
            status=status,
            version=version,
            seats=seats,
            options=options,
            turn_timeout=turn_timeout,
            players=players,
            you=you,
            result=result,
            created_at=created_at,
            private=private,
            place=place,
            tied=tied,
            points=points,
            invite=invite,
            rematch=rematch,
        )

        player_game.additional_properties = d
        return player_game

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
