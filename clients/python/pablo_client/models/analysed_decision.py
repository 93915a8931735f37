from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.analysed_decision_best import AnalysedDecisionBest
    from ..models.analysed_decision_taken import AnalysedDecisionTaken


T = TypeVar("T", bound="AnalysedDecision")


@_attrs_define
class AnalysedDecision:
    """
    Attributes:
        step (int): The replay step: the decision event's seq.
        seat (int):
        taken (AnalysedDecisionTaken): The action taken, as POST .../actions/ takes it.
        best (AnalysedDecisionBest): The best action by the analyser's estimate.
        loss (float): How much worse `taken` is than `best` (round points in the Pablo family, win probability in Skip-
            Bo); never negative.
        stderr (float | None): The standard error of `loss`.
        mark (None | str): null, "inaccuracy", "mistake" or "blunder": only when `loss` exceeds two standard errors; by
            its size (settings).
        estimate (float): The estimate of the action taken: expected round points, or win chance.
    """

    step: int
    seat: int
    taken: AnalysedDecisionTaken
    best: AnalysedDecisionBest
    loss: float
    stderr: float | None
    mark: None | str
    estimate: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        step = self.step

        seat = self.seat

        taken = self.taken.to_dict()

        best = self.best.to_dict()

        loss = self.loss

        stderr: float | None
        stderr = self.stderr

        mark: None | str
        mark = self.mark

        estimate = self.estimate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "step": step,
                "seat": seat,
                "taken": taken,
                "best": best,
                "loss": loss,
                "stderr": stderr,
                "mark": mark,
                "estimate": estimate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.analysed_decision_best import AnalysedDecisionBest
        from ..models.analysed_decision_taken import AnalysedDecisionTaken

        d = dict(src_dict)
        step = d.pop("step")

        seat = d.pop("seat")

        taken = AnalysedDecisionTaken.from_dict(d.pop("taken"))

        best = AnalysedDecisionBest.from_dict(d.pop("best"))

        loss = d.pop("loss")

        def _parse_stderr(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        stderr = _parse_stderr(d.pop("stderr"))

        def _parse_mark(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        mark = _parse_mark(d.pop("mark"))

        estimate = d.pop("estimate")

        analysed_decision = cls(
            step=step,
            seat=seat,
            taken=taken,
            best=best,
            loss=loss,
            stderr=stderr,
            mark=mark,
            estimate=estimate,
        )

        analysed_decision.additional_properties = d
        return analysed_decision

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
