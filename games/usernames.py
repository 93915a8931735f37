# ruff: noqa: RUF002  (the docstring shows lookalike letters on purpose)
"""Usernames: the one key every comparison uses, and the names a new account may take.

``username_key`` is what API.md calls comparing names "after trimming, NFKC
normalisation and case folding": ``" Victim"``, ``"victim "``, ``"ＶＩＣＴＩＭ"``
and ``"VICTIM"`` all have the key ``"victim"``. Every counter and check that
is about a username uses it: the failed-log-in throttle (API, web log-in,
admin log-in) and the uniqueness of new names.

``check_new_username`` refuses, for a new account:

* a name whose key equals an existing account's key (``ALICE_RT`` beside
  ``alice_rt``, fullwidth ``ＡＬＩＣＥ_ＲＴ``);
* invisible characters: Unicode's default-ignorable code points (zero-width
  spaces and joiners, soft hyphen, variation selectors, bidi controls, tags,
  the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 ...), control and format
  characters, and blank-looking letters such as U+2800 (braille blank);
* mixed scripts, as Unicode TR39's "highly restrictive" level: the letters
  of one script, plus characters common to all scripts (digits, ``_``, ``.``,
  ``@``, ``+``, ``-``) -- or Latin mixed only with the Han-based sets of
  Japanese (Han, Hiragana, Katakana), Chinese (Han, Bopomofo) or Korean
  (Han, Hangul). ``аlice`` (a Cyrillic ``а``) is refused; ``Ölaf``,
  ``καλημέρα`` and ``日本語テスト`` are fine. Each character's script comes from
  the Unicode data of ``confusable_homoglyphs`` (the library django-registration
  uses for the same purpose);
* the words the pages call their reader by, in any spelling (``You``, ``TOI``,
  fullwidth ``Ｄｕ``): at the table and in the lobby the reader is "You" ("Toi",
  "Du"), and a player of that name would pass for them;
* whole-script lookalikes: a name in one other script whose every letter
  looks like an ASCII letter (Cyrillic ``аре``, Greek ``ΑΒΕ``), from the same
  library's confusables data.

Pure Python: no Django here, so the throttles (``games.api.throttling``), the
serializers and the web forms share it.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from typing import Any

from confusable_homoglyphs import categories, confusables
from django.utils.translation import gettext_lazy as _

#: Code points that show nothing (Unicode's Default_Ignorable_Code_Point, plus
#: blank-looking letters). Ranges are inclusive.
_INVISIBLE = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors, vowel separator
    (0x200B, 0x200F),  # zero width space, (non-)joiner, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates
    (0x2800, 0x2800),  # braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFEFF, 0xFEFF),  # zero width no-break space
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement
)

#: TR39 "highly restrictive": one script, or Latin with one of these sets.
_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: Characters of these "scripts" go with any script.
_NEUTRAL = frozenset({"COMMON", "INHERITED"})


def username_key(name: str) -> str:
    """The name as every comparison sees it: trimmed, NFKC-normalised, case-folded."""
    text = unicodedata.normalize("NFKC", name).strip()
    return unicodedata.normalize("NFKC", text.casefold())


@functools.lru_cache(maxsize=4096)
def _ascii_twin(char: str) -> str:
    """The ASCII letter ``char`` passes for (Unicode's confusables), case-folded, else itself."""
    if char.isascii():
        return char
    for hit in confusables.is_confusable(char, greedy=True) or []:
        for glyph in hit["homoglyphs"]:
            if len(glyph["c"]) == 1 and glyph["c"].isascii():
                return str(glyph["c"]).casefold()
    return char


def username_look(name: str) -> str:
    """How the name looks: its key with each letter that passes for an ASCII one made that one.

    A TR39-style skeleton, narrowed to what impersonation needs here: Latin
    ``ɑlice`` (U+0251, alpha) and ``alıce`` (dotless i) are one script, so not
    "mixed", yet they read as ``alice``. Two accounts may not share a look
    (``games.accounts``); ``ålice`` and ``ölaf`` keep letters of their own.
    """
    return "".join(_ascii_twin(char) for char in username_key(name))


def name_digest(name: str) -> str:
    """The stored form of a name's look (hex SHA-256 of ``username_look``), unique per
    account in the database (``games.models.AccountName``): NFKC can make a name longer
    than an index entry may be, the digest never is."""
    return hashlib.sha256(username_look(name).encode()).hexdigest()


def clean_username(name: str) -> str:
    """The name a new account is stored under: trimmed and NFKC-normalised."""
    return unicodedata.normalize("NFKC", name).strip()


def is_invisible(char: str) -> bool:
    point = ord(char)
    if any(low <= point <= high for low, high in _INVISIBLE):
        return True
    return unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp")


def scripts(name: str) -> set[str]:
    """The scripts of the name's characters, without the neutral ones (digits, ``_`` ...)."""
    found = set()
    for char in name:
        try:
            alias = categories.alias(char)
        except Exception:  # a code point the data does not know
            alias = "UNKNOWN"
        if alias not in _NEUTRAL:
            found.add(alias)
    return found


def is_mixed_script(name: str) -> bool:
    found = scripts(name)
    if len(found) <= 1:
        return False
    return not any(found <= mix for mix in _ALLOWED_MIXES)


def looks_like_ascii(name: str) -> bool:
    """A name in one other script whose every letter looks like an ASCII one.

    TR39's whole-script confusables, for the case that matters here: Cyrillic
    ``аре`` or Greek ``ΑΒΕ`` would pass for the Latin names ``ape`` and ``ABE``.
    (``пётр`` and ``καλημέρα`` have letters that look like no ASCII letter.)
    """
    found = scripts(name)
    if not found or found == {"LATIN"}:
        return False
    letters = [char for char in name if categories.alias(char) not in _NEUTRAL]
    hits = confusables.is_confusable(name, greedy=True, preferred_aliases=["latin"]) or []
    ascii_like = {
        hit["character"]
        for hit in hits
        if any(len(glyph["c"]) == 1 and glyph["c"].isascii() for glyph in hit["homoglyphs"])
    }
    return all(char in ascii_like for char in letters)


#: What the table, the lobby and "Last moves" call their reader ("You", "Toi", "Du"):
#: a player of that name would read as the reader on everyone else's table.
READER_WORDS = frozenset({"you", "toi", "du"})


def username_problem(name: str) -> Any:
    """Why ``name`` (already cleaned) may not be a new username (a lazy translation), or None.

    Only the characters are judged here; whether the name is taken is the
    caller's question (it needs the database): compare ``username_key``.
    """
    if any(is_invisible(char) for char in name):
        return _("Usernames may not contain invisible characters.")
    # by its look: Latin small capitals (y, U+1D0F, u) are one script, yet read as "you"
    if username_look(name) in READER_WORDS:
        return _(
            "This name is the word the pages use for their reader, in English, French or "
            "German: choose another."
        )
    if is_mixed_script(name):
        return _(
            "Usernames may not mix letters of different scripts "
            "(such as Latin and Cyrillic letters that look alike)."
        )
    if looks_like_ascii(name):
        return _("Usernames may not be spelt with letters that only look like Latin ones.")
    return None


__all__ = [
    "clean_username",
    "is_mixed_script",
    "name_digest",
    "username_key",
    "username_look",
    "username_problem",
]
