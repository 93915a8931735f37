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
    from ..models.fairness import Fairness
    from ..models.game_options import GameOptions
    from ..models.game_state_type_0 import GameStateType0
    from ..models.player import Player


T = TypeVar("T", bound="Game")


@_attrs_define
class Game:
    """
    Attributes:
        id (UUID):
        ruleset (str):
        status (StatusEnum): * `waiting` - waiting
            * `active` - active
            * `finished` - finished
            * `aborted` - aborted
        version (int): The seq of the game's last event.
        seats (int):
        options (GameOptions):
        turn_timeout (int):
        players (list[Player]):
        you (int | None): Your seat, or null.
        state (GameStateType0 | None): The game as you see it (API.md 'The game and its state'); null while the game
            waits for players. The Pablo family adds `reveal`: the last finished round, public: {"round", "reason",
            "fields": {seat: [{"code", "value"} | null]}, "calls": [{"seat", "succeeded"}], "totals", "scores",
            "game_totals", "winners"} (null before the first round ends); in cabo also "kamikaze": the seat whose field held
            exactly 12, 12, 13 and 13, in a round where one did.
        created_at (datetime.datetime):
        fairness (Fairness | None): Fair deals (docs/fairness.md); null for a game with stacked decks.
        private (bool): Listed to its players only; joined by invite.
        invite (str | Unset): A private game's invite token, shown to its players only (the table's link:
            /play/{id}/?invite=<token>).
        rematch (None | Unset | UUID): Shown to its players once it is finished: the id of its rematch, or null.
    """

    id: UUID
    ruleset: str
    status: StatusEnum
    version: int
    seats: int
    options: GameOptions
    turn_timeout: int
    players: list[Player]
    you: int | None
    state: GameStateType0 | None
    created_at: datetime.datetime
    fairness: Fairness | None
    private: bool
    invite: str | Unset = UNSET
    rematch: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.fairness import Fairness
        from ..models.game_state_type_0 import GameStateType0

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

        state: dict[str, Any] | None
        if isinstance(self.state, GameStateType0):
            state = self.state.to_dict()
        else:
            state = self.state

        created_at = self.created_at.isoformat()

        fairness: dict[str, Any] | None
        if isinstance(self.fairness, Fairness):
            fairness = self.fairness.to_dict()
        else:
            fairness = self.fairness

        private = self.private

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
                "state": state,
                "created_at": created_at,
                "fairness": fairness,
                "private": private,
            }
        )
        if invite is not UNSET:
            field_dict["invite"] = invite
        if rematch is not UNSET:
            field_dict["rematch"] = rematch

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fairness import Fairness
        from ..models.game_options import GameOptions
        from ..models.game_state_type_0 import GameStateType0
        from ..models.player import Player

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        ruleset = d.pop("ruleset")

        status = StatusEnum(d.pop("status"))

        version = d.pop("version")

        seats = d.pop("seats")

        options = GameOptions.from_dict(d.pop("options"))

        turn_timeout = d.pop("turn_timeout")

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Player.from_dict(players_item_data)

            players.append(players_item)

        def _parse_you(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        you = _parse_you(d.pop("you"))

        def _parse_state(data: object) -> GameStateType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                state_type_0 = GameStateType0.from_dict(data)

                return state_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GameStateType0 | None, data)

        state = _parse_state(d.pop("state"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_fairness(data: object) -> Fairness | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fairness_type_1 = Fairness.from_dict(data)

                return fairness_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Fairness | None, data)

        fairness = _parse_fairness(d.pop("fairness"))

        private = d.pop("private")

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

        game = cls(
            id=id,
            ruleset=ruleset,
            status=status,
            version=version,
            seats=seats,
            options=options,
            turn_timeout=turn_timeout,
            players=players,
            you=you,
            state=state,
            created_at=created_at,
            fairness=fairness,
            private=private,
            invite=invite,
            rematch=rematch,
        )

        game.additional_properties = d
        return game

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
