from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fair_draw import FairDraw
    from ..models.replay_fairness_player_seeds import ReplayFairnessPlayerSeeds


T = TypeVar("T", bound="ReplayFairness")


@_attrs_define
class ReplayFairness:
    """
    Attributes:
        commitment (str): sha256 of the secret server seed, hex.
        player_seeds (ReplayFairnessPlayerSeeds): {seat: seed} as given.
        server_seed (None | str): The 32-byte server seed as hex, once the game has ended.
        draws (list[FairDraw]): Every draw of the game, in order.
    """

    commitment: str
    player_seeds: ReplayFairnessPlayerSeeds
    server_seed: None | str
    draws: list[FairDraw]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        commitment = self.commitment

        player_seeds = self.player_seeds.to_dict()

        server_seed: None | str
        server_seed = self.server_seed

        draws = []
        for draws_item_data in self.draws:
            draws_item = draws_item_data.to_dict()
            draws.append(draws_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "commitment": commitment,
                "player_seeds": player_seeds,
                "server_seed": server_seed,
                "draws": draws,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fair_draw import FairDraw
        from ..models.replay_fairness_player_seeds import ReplayFairnessPlayerSeeds

        d = dict(src_dict)
        commitment = d.pop("commitment")

        player_seeds = ReplayFairnessPlayerSeeds.from_dict(d.pop("player_seeds"))

        def _parse_server_seed(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        server_seed = _parse_server_seed(d.pop("server_seed"))

        draws = []
        _draws = d.pop("draws")
        for draws_item_data in _draws:
            draws_item = FairDraw.from_dict(draws_item_data)

            draws.append(draws_item)

        replay_fairness = cls(
            commitment=commitment,
            player_seeds=player_seeds,
            server_seed=server_seed,
            draws=draws,
        )

        replay_fairness.additional_properties = d
        return replay_fairness

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
