from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fairness_player_seeds import FairnessPlayerSeeds


T = TypeVar("T", bound="Fairness")


@_attrs_define
class Fairness:
    """
    Attributes:
        commitment (str): sha256 of the secret server seed, hex.
        player_seeds (FairnessPlayerSeeds): {seat: seed} as given.
        server_seed (None | str): The 32-byte server seed as hex, once the game has ended.
    """

    commitment: str
    player_seeds: FairnessPlayerSeeds
    server_seed: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        commitment = self.commitment

        player_seeds = self.player_seeds.to_dict()

        server_seed: None | str
        server_seed = self.server_seed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "commitment": commitment,
                "player_seeds": player_seeds,
                "server_seed": server_seed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fairness_player_seeds import FairnessPlayerSeeds

        d = dict(src_dict)
        commitment = d.pop("commitment")

        player_seeds = FairnessPlayerSeeds.from_dict(d.pop("player_seeds"))

        def _parse_server_seed(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        server_seed = _parse_server_seed(d.pop("server_seed"))

        fairness = cls(
            commitment=commitment,
            player_seeds=player_seeds,
            server_seed=server_seed,
        )

        fairness.additional_properties = d
        return fairness

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
