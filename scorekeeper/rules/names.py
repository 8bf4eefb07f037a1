"""Short names for a sheet's columns, made from the players' names and unique at the table.

"Maria Guadalupe Fernandez" becomes "Maria G."; two Marias become "Maria G." and "Maria F." (or
"Maria Go." and "Maria Ga." when the initials clash too). A first word is cut after FIRST_WORD
letters for a column ("Great-Gran… A."); a row per player (`first_word=None`) keeps it whole
("Great-Grandmother A.") and leaves the screen to wrap the name, or cut a word wider than a line,
where it must. Letters are counted as a reader sees them (grapheme clusters), so an accent, an
emoji made of several code points or a flag is never cut in half."""

import unicodedata
from collections import Counter
from collections.abc import Sequence

FIRST_WORD = 10  # letters of the first word a column shows before it is cut ("Bartholome…")
_ZWJ = "\u200d"


def _extends(char: str) -> bool:
    """Whether `char` belongs to the cluster before it (an accent, a variation or skin tone, a tag)."""
    code = ord(char)
    return (
        unicodedata.category(char) in ("Mn", "Mc", "Me")
        or 0xFE00 <= code <= 0xFE0F  # variation selectors (the emoji presentation)
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF  # skin tones
        or 0xE0020 <= code <= 0xE007F  # tags (subdivision flags)
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


def graphemes(text: str) -> list[str]:
    """`text` cut into the characters a reader sees: close enough to Unicode's extended grapheme
    clusters for names (accents, emoji joined with ZWJ, skin tones, flags)."""
    clusters: list[str] = []
    join_next = False
    for char in unicodedata.normalize("NFC", text):
        previous = clusters[-1] if clusters else ""
        if previous and (join_next or char == _ZWJ or _extends(char)):
            clusters[-1] += char
        elif previous and _regional(char) and len(previous) == 1 and _regional(previous):
            clusters[-1] += char  # the second half of a flag
        else:
            clusters.append(char)
        join_next = char == _ZWJ
    return clusters


def _is_letter(cluster: str) -> bool:
    return unicodedata.category(cluster[0]).startswith("L")


def _cut(word: str, letters: int) -> str:
    """The first `letters` of `word` followed by a full stop ("Gu."), or the whole word if that is
    all of it. A cut after a symbol (an emoji) takes no full stop."""
    clusters = graphemes(word)
    if letters >= len(clusters):
        return word
    return "".join(clusters[:letters]) + ("." if _is_letter(clusters[letters - 1]) else "")


def _first(word: str, letters: int | None) -> str:
    clusters = graphemes(word)
    return word if letters is None or len(clusters) <= letters + 1 else "".join(clusters[:letters]) + "…"


def _candidates(name: str, letters: int | None) -> list[str]:
    """The ways to shorten `name`, shortest first: the first word with the second's initial, then
    every later word's initial, then more and more of the last word; the whole name last."""
    words = unicodedata.normalize("NFC", name).split()
    if not words:
        return [name]
    first, rest = _first(words[0], letters), words[1:]
    found = [first]
    if rest:
        found = [f"{first} {_cut(rest[0], 1)}"]
        initials = [_cut(word, 1) for word in rest[:-1]]
        found += [" ".join([first, *initials, _cut(rest[-1], n)]) for n in range(1, len(graphemes(rest[-1])) + 1)]
    found.append(" ".join(words))
    return list(dict.fromkeys(found))  # in order, each once


def short_names(names: Sequence[str], *, first_word: int | None = FIRST_WORD) -> list[str]:
    """A short name for each of `names` (in the same order), different from the others': each name
    takes its shortest form, and the names that still read the same take a longer one together.
    Names that are the same in full are told apart by a number ("Ann", "Ann 2"). A first word is
    cut after `first_word` letters ("Great-Gran… A."), or kept whole with None ("Great-Grandma A.")."""
    options = [_candidates(name, first_word) for name in names]
    level = [0] * len(names)
    while True:
        shown = [choices[min(step, len(choices) - 1)] for choices, step in zip(options, level, strict=True)]
        counts = Counter(shown)
        clashing = [i for i, text in enumerate(shown) if counts[text] > 1 and level[i] < len(options[i]) - 1]
        if not clashing:
            break
        for i in clashing:
            level[i] += 1
    seen: Counter = Counter()
    result = []
    for text in shown:
        seen[text] += 1
        result.append(text if seen[text] == 1 else f"{text} {seen[text]}")
    return result
