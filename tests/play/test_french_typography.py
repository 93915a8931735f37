"""French typography: a narrow no-break space before ":", ";", "!" and "?".

"0 et 1: …" reads as a mistake to a French reader, and "0 et 1 : …" with an
ordinary space can break the line before the colon. Every French message puts a
narrow no-break space (U+202F) there; what stays as it is: the API field a
refusal is about ("positions: …", a name, not French), code, HTML entities,
URLs, times ("22:00") and placeholders, whose colon is followed by no space.
"""

from __future__ import annotations

import gettext
import html
import re
from pathlib import Path

import pytest
from django.conf import settings

from tests.play.test_reveal import cabo_after_round_one, client_for  # noqa: F401  (a fixture)

FRENCH = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
NARROW = "\u202f"
#: What is not French prose: a leading API field, code, entities, URLs.
NOT_PROSE = re.compile(r"^[\w.\[\]%()-]+: |<code>.*?</code>|&#?\w+;|\w+://\S*")
#: Punctuation that ends a clause: followed by a space, the end, a tag or a ")".
PUNCTUATION = re.compile(r"(.?)([:;!?])(?=\s|$|<|\)|\")")


def bare(text: str) -> list[str]:
    """The places in ``text`` where a ":;!?" lacks its narrow no-break space."""
    prose = NOT_PROSE.sub(" ", text)
    return [
        prose[max(0, m.start() - 20) : m.end() + 5]
        for m in PUNCTUATION.finditer(prose)
        if m.group(1) not in (NARROW, "\u00a0")
    ]


def test_the_check_finds_what_it_should():
    assert bare("0 et 1: la suite") and bare("0 et 1 : la suite") and bare("Prêt ?")
    assert bare("<strong>À toi :</strong> regarde")
    assert not bare(f"0 et 1{NARROW}: la suite{NARROW}; fin{NARROW}!")
    assert not bare("positions: nomme deux emplacements.")  # the API's field
    assert not bare("à 22:00, voir https://example.com/?a=1 et <code>A: b</code>&nbsp;x")
    assert not bare("%(name)s: doit être un entier")


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_french_message_puts_a_narrow_space_before_colons(domain):
    with (FRENCH / f"{domain}.mo").open("rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog
    wrong = {
        text: found
        for key, text in catalogue.items()
        if key and (found := bare(text))  # key "": the header
    }
    assert not wrong, "\n".join(f"{t!r}: {f}" for t, f in wrong.items())


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_french_quotes_hold_their_words_with_no_break_spaces(domain):
    """« Me prévenir sur cet appareil » with ordinary spaces can end a line on a
    lone « or begin one with a lone »."""
    with (FRENCH / f"{domain}.mo").open("rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog
    wrong = [
        text
        for key, text in catalogue.items()
        if key and isinstance(text, str) and re.search(r"«\s| »|\s»", text.replace(NARROW, ""))
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
def test_the_french_table_after_a_round(cabo_after_round_one):  # noqa: F811
    """The sentences the code puts together (a look and its cards, the standings)
    follow the rule too, not only the catalogue's own messages."""
    game, users = cabo_after_round_one
    page = client_for(users[0]).get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE="fr")
    body = page.content.decode()
    body = re.sub(r"<(script|style)\b.*?</\1>|<svg\b.*?</svg>", " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    assert "Manche 1" in text
    assert not bare(text), bare(text)


def test_the_tables_hint_joins_its_parts_with_frenchs_semicolon():
    from django.utils import translation

    from play.selection import Selection, hint

    legal = [{"type": "replace", "choices": [1]}, {"type": "throw"}]
    with translation.override("fr"):
        said = hint(legal, Selection(refs=[], choices=[]), "french")
    assert "\u202f; " in said, said


@pytest.mark.django_db
def test_the_french_account_page(cabo_after_round_one):  # noqa: F811
    """The account page's notification switches are named "kind : channel" in French
    (a screen reader says them; they were put together as "À toi de jouer: E-mail")."""
    _game, users = cabo_after_round_one
    page = client_for(users[0]).get("/accounts/token/", HTTP_ACCEPT_LANGUAGE="fr")
    body = page.content.decode()
    body = re.sub(r"<(script|style|code)\b.*?</\1>|<svg\b.*?</svg>", " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "", body))
    assert f"À toi de jouer{NARROW}: E-mail" in text
    assert not bare(text), bare(text)


def test_the_viewers_chart_legend_and_marks_in_french():
    """The score chart's legend ("ann : 44") and a marked point's title, put together
    by the code, not a catalogue message."""
    from django.utils import translation

    from replays.analysis_chart import mark_title
    from replays.chart import legend

    with translation.override("fr"):
        assert f"ann{NARROW}: 44" in legend([("ann", "#000", 44)])
        assert mark_title("ann", "blunder").startswith(f"ann{NARROW}: ")
