from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event import Event
    from ..models.game import Game
    from ..models.replay_fairness import ReplayFairness


T = TypeVar("T", bound="Replay")


@_attrs_define
class Replay:
    """
    Attributes:
        game (Game):
        events (list[Event]): Every event, unredacted.
        fairness (None | ReplayFairness): The game's fairness with the server seed and every draw.
    """

    game: Game
    events: list[Event]
    fairness: None | ReplayFairness
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.replay_fairness import ReplayFairness

        game = self.game.to_dict()

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        fairness: dict[str, Any] | None
        if isinstance(self.fairness, ReplayFairness):
            fairness = self.fairness.to_dict()
        else:
            fairness = self.fairness

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game": game,
                "events": events,
                "fairness": fairness,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event import Event
        from ..models.game import Game
        from ..models.replay_fairness import ReplayFairness

        d = dict(src_dict)
        game = Game.from_dict(d.pop("game"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = Event.from_dict(events_item_data)

            events.append(events_item)

        def _parse_fairness(data: object) -> None | ReplayFairness:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                fairness_type_1 = ReplayFairness.from_dict(data)

                return fairness_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ReplayFairness, data)

        fairness = _parse_fairness(d.pop("fairness"))

        replay = cls(
            game=game,
            events=events,
            fairness=fairness,
        )

        replay.additional_properties = d
        return replay

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
