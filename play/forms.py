"""The lobby's "start a game" form, in players' words.

One Django form per ruleset, built from ``selectors.games.ruleset_list()`` (the data
of ``GET /api/rulesets/``): only the options that apply to the ruleset, each
with a sentence a player understands and its default named in words. The form
checks only what a field can hold (a whole number, one of the offered choices,
JSON for the stacked decks); every rule about the values -- the ruleset's
seat range, option bounds, the turn time's range, bot seats -- stays the API's:
the form's body goes through the API's input serializer and
``services.games.game_create``, and a refusal's sentence ("options.stock_size: must be
at least 5.") is shown beside the field it names, with the form still filled in.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

from games import rules

#: Turn time units offered (seconds each); the API takes 1 s to 14 days.
UNITS = [("minutes", 60), ("hours", 3600), ("days", 86400)]
UNIT_WORDS = {
    "minutes": gettext_lazy("minutes"),
    "hours": gettext_lazy("hours"),
    "days": gettext_lazy("days"),
}
#: Options shown under "More options" rather than at once.
MORE = ("start_seat", "memory", "max_timeouts", "stand_in")
#: Each bot level in words (the seats' and the stand-in's choices); a level the rules
#: add later and that is not named here is "a <level> bot".
BOT_WORDS = {
    "random": gettext_lazy("a random bot (any legal move)"),
    "basic": gettext_lazy("a basic bot"),
    "expert": gettext_lazy("an expert bot (the strongest)"),
}


def bot_words(level: str) -> str:
    return BOT_WORDS.get(level) or gettext("a %(level)s bot") % {"level": level}


def seat_choices(levels: list[str]) -> list[tuple[str, str]]:
    """Who may take a seat: a person (who joins), or a bot of each level the ruleset lists."""
    person = gettext("a person (who joins)")
    return [("", person)] + [(level, bot_words(level)) for level in levels]


#: name -> (label, sentence, {value: words}, default in words). Options the
#: rules add later and that are not named here fall back to the API's text.
WORDS: dict[str, tuple[str, str, dict[Any, str], str]] = {
    "jokers": (
        gettext_lazy("Jokers"),
        gettext_lazy("How many jokers are shuffled in; each counts minus one."),
        {1: gettext_lazy("1 joker"), 2: gettext_lazy("2 jokers")},
        "",
    ),
    "forty_two": (
        gettext_lazy("Exactly 42 loses"),
        gettext_lazy("A player whose game total becomes exactly 42 loses at once."),
        {},
        "",
    ),
    "minus_sixty_nine": (
        gettext_lazy("Exactly minus 69 wins"),
        gettext_lazy("A player whose game total becomes exactly -69 wins at once."),
        {},
        "",
    ),
    "advanced": (
        gettext_lazy("Advanced rules"),
        gettext_lazy(
            "A player with no card left must discard what they draw, and a discarded queen "
            "gives them one more card."
        ),
        {},
        "",
    ),
    "decks": (
        gettext_lazy("Decks"),
        gettext_lazy("One 52-card deck is enough for up to 6 players; take two for more."),
        {1: gettext_lazy("1 deck"), 2: gettext_lazy("2 decks")},
        "",
    ),
    "stock_size": (
        gettext_lazy("Stock pile"),
        gettext_lazy(
            "How many cards each player must get rid of to win (5 to 30; with many players "
            "fewer fit, as the draw pile needs 30 cards)."
        ),
        {},
        gettext_lazy("30 cards, 20 with 5–6 players"),  # noqa: RUF001 (an en dash)
    ),
    "start_seat": (
        gettext_lazy("Who starts"),
        gettext_lazy("The player who takes the first turn."),
        {},
        gettext_lazy("random"),
    ),
    "memory": (
        gettext_lazy("Memory help"),
        gettext_lazy(
            "Whether the table keeps showing cards you have seen, or shows each once and you "
            "remember it."
        ),
        {
            "assisted": gettext_lazy("shown by the table"),
            "strict": gettext_lazy("remembered by you"),
        },
        "",
    ),
    "max_timeouts": (
        gettext_lazy("Missed turns before absent"),
        gettext_lazy(
            "After this many missed turns in a row a player counts as absent, and their turns "
            "are played for them until they come back."
        ),
        {},
        "3",
    ),
    "stand_in": (
        gettext_lazy("Who plays for an absent player"),
        gettext_lazy("What happens on an absent player's turns."),
        {"rules": gettext_lazy("the simplest move the rules allow"), **BOT_WORDS},
        "",
    ),
}


class IntegerInput(forms.TextInput):
    """A text box for a whole number (``inputmode=numeric``): the server says what is wrong
    with a value, not the browser's number box, which silently refuses to send."""

    input_type = "text"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"inputmode": "numeric", "class": "short", **(attrs or {})})


class TickedCheckbox(forms.CheckboxInput):
    """A box ticked by default: a hidden ``false`` before it tells "unticked" (the browser
    sends nothing for an unticked box) from a form that has no such box (an older page),
    which takes the default."""

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> str:
        box = super().render(name, value, attrs, renderer)
        return format_html('<input type="hidden" name="{}" value="false">{}', name, box)

    def value_from_datadict(self, data: Any, files: Any, name: str) -> bool:
        if name not in data:
            return True
        return bool(super().value_from_datadict(data, files, name))


def _field_errors(field: forms.Field) -> None:
    field.error_messages = {**field.error_messages, "invalid": gettext_lazy("Give a whole number.")}


class CreateForm(forms.Form):
    """One ruleset's create form; ``body()`` is the API's ``POST /api/games/`` body."""

    def __init__(self, spec: dict[str, Any], *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", f"id_{spec['id']}_%s")
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.ruleset = str(spec["id"])
        lo, hi = int(spec["min_players"]), int(spec["max_players"])
        default_seats = 3 if lo <= 3 <= hi else lo
        f = self.fields
        f["ruleset"] = forms.CharField(widget=forms.HiddenInput, initial=self.ruleset)
        f["seats"] = forms.TypedChoiceField(
            label=gettext_lazy("Players"),
            choices=[(n, str(n)) for n in range(lo, hi + 1)],
            coerce=int,
            initial=default_seats,
            help_text=gettext_lazy("You included."),
        )
        f["turn_amount"] = forms.IntegerField(
            label=gettext_lazy("Time per turn"),
            initial=1,
            widget=IntegerInput(),
            help_text=gettext_lazy(
                "From 1 minute to 14 days. When it runs out, the server plays the turn."
            ),
        )
        _field_errors(f["turn_amount"])
        f["turn_unit"] = forms.ChoiceField(
            label=gettext_lazy("unit"),
            choices=[(u, UNIT_WORDS[u]) for u, _seconds in UNITS],
            initial="days",
        )
        self.option_names: list[str] = []
        # options a ruleset takes but that change nothing a player would notice in it
        hidden = rules.get_ruleset(self.ruleset).presentation.unused_options
        for name, opt in spec["options"].items():
            if name in hidden:
                continue
            self.option_names.append(name)
            f[f"opt_{name}"] = self._option(name, opt, hi)
        f["private"] = forms.BooleanField(
            label=gettext_lazy("Private game"),
            required=False,
            help_text=gettext_lazy(
                "Not listed under open games: only people you send the invite link to can join."
            ),
        )
        f["rated"] = forms.BooleanField(
            label=gettext_lazy("Rated game"),
            required=False,
            initial=True,
            widget=TickedCheckbox(),
            help_text=gettext_lazy(
                "Counts for the ratings of the people who play it (bots are not rated)."
            ),
        )
        self.bot_names = []
        for seat in range(1, hi):
            key = f"bot_{seat}"
            self.bot_names.append(key)
            f[key] = forms.ChoiceField(
                label=gettext("Seat %(seat)s") % {"seat": seat},
                choices=seat_choices(list(spec.get("bot_levels") or ["basic", "random"])),
                required=False,
                initial="",
            )
        self.stacked = bool(settings.PABLO_ALLOW_STACKED_DECKS)
        if self.stacked:
            f["decks"] = forms.CharField(
                label=gettext_lazy("Stacked decks (testing only)"),
                required=False,
                widget=forms.Textarea(attrs={"rows": 2}),
                help_text=gettext_lazy("A JSON list of lists of card codes, top first."),
            )

    # ------------------------------------------------------------------ fields

    def _option(self, name: str, opt: dict[str, Any], max_players: int) -> forms.Field:
        label, sentence, words, default_words = WORDS.get(
            name,
            (name.replace("_", " ").capitalize(), str(opt.get("description", "")), {}, ""),
        )
        default = opt.get("default")
        field: forms.Field
        if name == "start_seat":
            choices = [("", gettext("random")), ("0", gettext("you"))] + [
                (str(s), gettext("the player in seat %(seat)s") % {"seat": s})
                for s in range(1, max_players)
            ]
            field = forms.ChoiceField(label=label, choices=choices, required=False, initial="")
        elif "enum" in opt:
            choices = [
                (json.dumps(v), words.get(v) or (bot_words(v) if name == "stand_in" else str(v)))
                for v in opt["enum"]
            ]
            # not required: a form without it (an older page) takes the default
            field = forms.ChoiceField(
                label=label, choices=choices, initial=json.dumps(default), required=False
            )
        elif opt.get("type") == "boolean":
            field = forms.BooleanField(label=label, required=False, initial=bool(default))
        elif opt.get("type") == "integer":
            attrs = {}
            if default_words:
                attrs["placeholder"] = default_words
            field = forms.IntegerField(
                label=label,
                required=False,
                initial=None if default is None else default,
                widget=IntegerInput(attrs),
            )
            _field_errors(field)
        else:
            field = forms.CharField(label=label, required=False, max_length=200)
        if default_words and isinstance(field, forms.IntegerField) and field.initial is None:
            # only under a box shown empty (a select says its default among its choices)
            sentence = gettext("%(sentence)s Left empty: %(default)s.") % {
                "sentence": sentence,
                "default": default_words,
            }
        field.help_text = sentence
        return field

    # ------------------------------------------------------------------ groups

    def main_options(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in self.option_names if n not in MORE]

    def more_options(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in self.option_names if n in MORE]

    def bot_fields(self) -> list[forms.BoundField]:
        return [self[n] for n in self.bot_names]

    def decks_field(self) -> forms.BoundField | None:
        return self["decks"] if self.stacked else None

    def more_have_errors(self) -> bool:
        """A refused value under "More options": the section is shown unfolded."""
        names = [f"opt_{n}" for n in self.option_names if n in MORE] + ["decks"]
        return self.is_bound and any(n in self.errors for n in names)

    # ------------------------------------------------------------------ checks

    def clean_decks(self) -> Any:
        raw = (self.cleaned_data.get("decks") or "").strip()
        if not raw:
            return None
        try:
            return json.loads(raw)
        except (ValueError, RecursionError):
            raise forms.ValidationError(
                gettext("Give a JSON list of lists of card codes.")
            ) from None

    def body(self) -> dict[str, Any]:
        """The API's create body from the cleaned fields (call after ``is_valid``)."""
        data = self.cleaned_data
        seats = data["seats"]
        body: dict[str, Any] = {
            "ruleset": self.ruleset,
            "seats": seats,
            "turn_timeout": data["turn_amount"] * dict(UNITS)[data["turn_unit"]],
        }
        options: dict[str, Any] = {}
        for name in self.option_names:
            value = data.get(f"opt_{name}")
            opt = self.spec["options"][name]
            if name == "start_seat":
                if value not in (None, ""):
                    options[name] = int(value)
            elif "enum" in opt:
                if value:
                    options[name] = json.loads(value)
            elif value is not None and value != "":
                options[name] = value
        body["options"] = options
        if data.get("private"):
            body["private"] = True
        if not data.get("rated", True):
            body["rated"] = False
        bots = [
            {"seat": s, "level": data[f"bot_{s}"]} for s in range(1, seats) if data.get(f"bot_{s}")
        ]
        if bots:
            body["bots"] = bots
        if self.stacked and data.get("decks") is not None:
            body["decks"] = data["decks"]
        return body

    def refused(self, detail: str) -> None:
        """Show the API's refusal beside the field its sentence names."""
        head, _, rest = detail.partition(": ")
        target = None
        if head.startswith("options."):
            name = head.split(".", 1)[1]
            if f"opt_{name}" in self.fields:
                target = f"opt_{name}"
        elif head == "seats":
            target = "seats"
        elif head == "turn_timeout":
            target = "turn_amount"
            rest = gettext("The time per turn is from 1 minute to 14 days.")
        elif head.startswith("bots"):
            target = None
        elif head.startswith("decks") and self.stacked:
            target = "decks"
        elif head == "private":
            target = "private"
        if target is not None and rest:
            self.add_error(target, rest[:1].upper() + rest[1:])
        else:
            self.add_error(None, detail)
