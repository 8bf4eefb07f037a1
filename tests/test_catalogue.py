"""The Spanish catalogue: complete, current with the code, and every placeholder kept.

`make messages` compiles it with `msgfmt --check` (broken entries and format mismatches stop the
set-up); these tests add what msgfmt lets through: untranslated or fuzzy entries, and strings
in the code that never reached the catalogue."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

CATALOGUE = Path(settings.BASE_DIR) / "locale/es/LC_MESSAGES/django.po"
PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)s")


def problems(catalogue: polib.POFile) -> list[str]:
    found = []
    for entry in catalogue:
        if entry.obsolete:
            found.append(f"obsolete: {entry.msgid}")
        elif "fuzzy" in entry.flags:
            found.append(f"fuzzy: {entry.msgid}")
        elif not entry.translated():
            found.append(f"untranslated: {entry.msgid}")
        else:
            translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for english, spanish in zip([entry.msgid, entry.msgid_plural or entry.msgid], translations, strict=False):
                if sorted(set(PLACEHOLDER.findall(english))) != sorted(set(PLACEHOLDER.findall(spanish))):
                    found.append(f"placeholders differ: {entry.msgid}")
    return found


def test_every_entry_of_the_spanish_catalogue_is_translated_and_none_is_fuzzy():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 500
    assert problems(catalogue) == []
    assert catalogue.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"


def test_the_check_finds_an_untranslated_a_fuzzy_and_a_broken_entry():
    catalogue = polib.POFile()
    catalogue.append(polib.POEntry(msgid="Save round", msgstr=""))
    catalogue.append(polib.POEntry(msgid="Round {number}", msgstr="Ronda {number}", flags=["fuzzy"]))
    catalogue.append(polib.POEntry(msgid="Deleted {name}.", msgstr="Se borró {nombre}."))
    catalogue.append(polib.POEntry(msgid="Cancel", msgstr="Cancelar"))
    assert problems(catalogue) == [
        "untranslated: Save round",
        "fuzzy: Round {number}",
        "placeholders differ: Deleted {name}.",
    ]


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is installed by `make messages`")
def test_every_translatable_string_of_the_code_is_in_the_catalogue(tmp_path):
    """makemessages run on a copy of the project: a string added to the code (or changed) since the
    catalogue was made would come out untranslated or fuzzy."""
    root = Path(settings.BASE_DIR)
    for part in ("manage.py", "scorekeeper", "accounts", "templates", "locale"):
        source = root / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / part)
    env = os.environ | {"SECRET_KEY": "catalogue-check", "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", "--no-location", "--no-obsolete", "-v0"],
        cwd=tmp_path,
        env=env,
        check=True,
    )
    fresh = polib.pofile(str(tmp_path / "locale/es/LC_MESSAGES/django.po"))
    assert problems(fresh) == []
    assert {entry.msgid for entry in fresh} == {entry.msgid for entry in polib.pofile(str(CATALOGUE))}
