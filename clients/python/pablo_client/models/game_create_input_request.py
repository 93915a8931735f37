from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.game_create_input_request_options import GameCreateInputRequestOptions


T = TypeVar("T", bound="GameCreateInputRequest")


@_attrs_define
class GameCreateInputRequest:
    """
    Attributes:
        ruleset (str): A ruleset's `id` (GET /api/rulesets/).
        seats (int): Number of players, within the ruleset's range.
        turn_timeout (int | Unset):  Default: 86400.
        options (GameCreateInputRequestOptions | Unset): Ruleset options plus start_seat, memory, max_timeouts (GET
            /api/rulesets/).
        decks (list[list[str]] | None | Unset): Stacked decks for testing: one list of card codes per round, top first
            (only where the server allows them).
        bots (list[Any] | None | Unset): Seats taken by bots at once: [{"seat": n >= 1, "level"}], a level of the
            ruleset's `bot_levels` (default basic). A game whose other seats are all bots starts at once.
        seed (str | Unset): Your fair-deal seed (docs/fairness.md): any string of at most 64 characters, public at once;
            mixed into every draw of the game. Default: ''.
        private (bool | Unset): A private game is listed to its players only; others join it with its `invite` (shown to
            its players). Default: False.
        rated (bool | Unset): Whether the game counts for ratings; a game with `decks` never does. Default: True.
    """

    ruleset: str
    seats: int
    turn_timeout: int | Unset = 86400
    options: GameCreateInputRequestOptions | Unset = UNSET
    decks: list[list[str]] | None | Unset = UNSET
    bots: list[Any] | None | Unset = UNSET
    seed: str | Unset = ""
    private: bool | Unset = False
    rated: bool | Unset = True
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ruleset = self.ruleset

        seats = self.seats

        turn_timeout = self.turn_timeout

        options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.options, Unset):
            options = self.options.to_dict()

        decks: list[list[str]] | None | Unset
        if isinstance(self.decks, Unset):
            decks = UNSET
        elif isinstance(self.decks, list):
            decks = []
            for decks_type_0_item_data in self.decks:
                decks_type_0_item = decks_type_0_item_data

                decks.append(decks_type_0_item)

        else:
            decks = self.decks

        bots: list[Any] | None | Unset
        if isinstance(self.bots, Unset):
            bots = UNSET
        elif isinstance(self.bots, list):
            bots = self.bots

        else:
            bots = self.bots

        seed = self.seed

        private = self.private

        rated = self.rated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ruleset": ruleset,
                "seats": seats,
            }
        )
        if turn_timeout is not UNSET:
            field_dict["turn_timeout"] = turn_timeout
        if options is not UNSET:
            field_dict["options"] = options
        if decks is not UNSET:
            field_dict["decks"] = decks
        if bots is not UNSET:
            field_dict["bots"] = bots
        if seed is not UNSET:
            field_dict["seed"] = seed
        if private is not UNSET:
            field_dict["private"] = private
        if rated is not UNSET:
            field_dict["rated"] = rated

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.game_create_input_request_options import GameCreateInputRequestOptions

        d = dict(src_dict)
        ruleset = d.pop("ruleset")

        seats = d.pop("seats")

        turn_timeout = d.pop("turn_timeout", UNSET)

        _options = d.pop("options", UNSET)
        options: GameCreateInputRequestOptions | Unset
        if isinstance(_options, Unset):
            options = UNSET
        else:
            options = GameCreateInputRequestOptions.from_dict(_options)

        def _parse_decks(data: object) -> list[list[str]] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                decks_type_0 = []
                _decks_type_0 = data
                for decks_type_0_item_data in _decks_type_0:
                    decks_type_0_item = cast(list[str], decks_type_0_item_data)

                    decks_type_0.append(decks_type_0_item)

                return decks_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[list[str]] | None | Unset, data)

        decks = _parse_decks(d.pop("decks", UNSET))

        def _parse_bots(data: object) -> list[Any] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                bots_type_0 = cast(list[Any], data)

                return bots_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Any] | None | Unset, data)

        bots = _parse_bots(d.pop("bots", UNSET))

        seed = d.pop("seed", UNSET)

        private = d.pop("private", UNSET)

        rated = d.pop("rated", UNSET)

        game_create_input_request = cls(
            ruleset=ruleset,
            seats=seats,
            turn_timeout=turn_timeout,
            options=options,
            decks=decks,
            bots=bots,
            seed=seed,
            private=private,
            rated=rated,
        )

        game_create_input_request.additional_properties = d
        return game_create_input_request

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
