from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.history_game import HistoryGame
    from ..models.history_ruleset import HistoryRuleset


T = TypeVar("T", bound="History")


@_attrs_define
class History:
    """
    Attributes:
        rulesets (list[HistoryRuleset]): Per ruleset over all your finished games (not only this page).
        count (int):
        next_ (None | str):
        previous (None | str):
        results (list[HistoryGame]):
    """

    rulesets: list[HistoryRuleset]
    count: int
    next_: None | str
    previous: None | str
    results: list[HistoryGame]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rulesets = []
        for rulesets_item_data in self.rulesets:
            rulesets_item = rulesets_item_data.to_dict()
            rulesets.append(rulesets_item)

        count = self.count

        next_: None | str
        next_ = self.next_

        previous: None | str
        previous = self.previous

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rulesets": rulesets,
                "count": count,
                "next": next_,
                "previous": previous,
                "results": results,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.history_game import HistoryGame
        from ..models.history_ruleset import HistoryRuleset

        d = dict(src_dict)
        rulesets = []
        _rulesets = d.pop("rulesets")
        for rulesets_item_data in _rulesets:
            rulesets_item = HistoryRuleset.from_dict(rulesets_item_data)

            rulesets.append(rulesets_item)

        count = d.pop("count")

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        def _parse_previous(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous = _parse_previous(d.pop("previous"))

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = HistoryGame.from_dict(results_item_data)

            results.append(results_item)

        history = cls(
            rulesets=rulesets,
            count=count,
            next_=next_,
            previous=previous,
            results=results,
        )

        history.additional_properties = d
        return history

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
