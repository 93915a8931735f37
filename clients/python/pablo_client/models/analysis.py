from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.analysed_decision import AnalysedDecision
    from ..models.analysed_player import AnalysedPlayer


T = TypeVar("T", bound="Analysis")


@_attrs_define
class Analysis:
    """
    Attributes:
        status (str): "done".
        analyser (str): The analyser's version.
        decisions (list[AnalysedDecision]):
        players (list[AnalysedPlayer]):
    """

    status: str
    analyser: str
    decisions: list[AnalysedDecision]
    players: list[AnalysedPlayer]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        analyser = self.analyser

        decisions = []
        for decisions_item_data in self.decisions:
            decisions_item = decisions_item_data.to_dict()
            decisions.append(decisions_item)

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "analyser": analyser,
                "decisions": decisions,
                "players": players,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.analysed_decision import AnalysedDecision
        from ..models.analysed_player import AnalysedPlayer

        d = dict(src_dict)
        status = d.pop("status")

        analyser = d.pop("analyser")

        decisions = []
        _decisions = d.pop("decisions")
        for decisions_item_data in _decisions:
            decisions_item = AnalysedDecision.from_dict(decisions_item_data)

            decisions.append(decisions_item)

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = AnalysedPlayer.from_dict(players_item_data)

            players.append(players_item)

        analysis = cls(
            status=status,
            analyser=analyser,
            decisions=decisions,
            players=players,
        )

        analysis.additional_properties = d
        return analysis

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
