"""The Spanish catalogues: complete, current with the code, and every placeholder kept.

Two of them: django.po (pages, Python, the rules' messages) and djangojs.po (the words app.js and
offline.js say with t() and tn(), served to the page as Django's JavaScript catalogue in a static
file of each language). `make messages` compiles them with `msgfmt --check` (broken entries and
format mismatches stop the set-up) and writes the static catalogues; these tests add what msgfmt
lets through: untranslated or fuzzy entries, strings in the code that never reached a catalogue,
and compiled files that say something else than their source."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from statici18n.templatetags.statici18n import get_path

ROOT = Path(settings.BASE_DIR)
CATALOGUE = ROOT / "locale/es/LC_MESSAGES/django.po"
SCRIPTS_CATALOGUE = ROOT / "locale/es/LC_MESSAGES/djangojs.po"
SCRIPTS = sorted((ROOT / "scorekeeper/static/scorekeeper").glob("*.js"))
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


@pytest.mark.parametrize("catalogue", [CATALOGUE, SCRIPTS_CATALOGUE], ids=lambda path: path.name)
def test_the_compiled_catalogue_that_ships_is_the_source_compiled(catalogue):
    """The .mo is committed, so a deploy serves Spanish without gettext on its host; it must say
    exactly what the .po says (`make messages` compiles it again after an edit)."""
    source = polib.pofile(str(catalogue))
    shipped = polib.mofile(str(catalogue.with_suffix(".mo")))

    def translations(catalogue):
        return {
            (entry.msgctxt, entry.msgid, entry.msgid_plural): entry.msgstr_plural or entry.msgstr
            for entry in catalogue
            if entry.msgid and (entry.msgstr or entry.msgstr_plural) and "fuzzy" not in entry.flags
        }

    expected = translations(source)
    found = translations(shipped)
    assert found.keys() == expected.keys(), sorted(set(found) ^ set(expected))[:5]
    assert {key: value for key, value in found.items() if expected[key] != value} == {}


def test_every_entry_of_the_spanish_catalogue_is_translated_and_none_is_fuzzy():
    catalogue = polib.pofile(str(CATALOGUE))
    assert len(catalogue) > 500
    assert problems(catalogue) == []
    assert catalogue.metadata["Plural-Forms"] == "nplurals=2; plural=(n != 1);"


def test_every_entry_of_the_scripts_spanish_catalogue_is_translated_and_none_is_fuzzy():
    catalogue = polib.pofile(str(SCRIPTS_CATALOGUE))
    assert len(catalogue) > 30
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


def made_messages(tmp_path: Path, domain: str) -> polib.POFile:
    """makemessages run on a copy of the project (ours, which knows the scripts' t() and tn())."""
    for part in ("manage.py", "scorekeeper", "accounts", "templates", "locale"):
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, tmp_path / part, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / part)
    env = os.environ | {"SECRET_KEY": "catalogue-check", "DJANGO_SETTINGS_MODULE": "scorekeeper.settings"}
    env.pop("DATABASE_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "es", "-d", domain, "--no-location", "--no-obsolete",
         "-v0", "--ignore=scorekeeper/static/scorekeeper/jsi18n"],
        cwd=tmp_path,
        env=env,
        check=True,
    )  # fmt: skip
    return polib.pofile(str(tmp_path / f"locale/es/LC_MESSAGES/{domain}.po"))


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="gettext is installed by `make messages`")
@pytest.mark.parametrize("catalogue", [CATALOGUE, SCRIPTS_CATALOGUE], ids=lambda path: path.name)
def test_every_translatable_string_of_the_code_is_in_the_catalogue(tmp_path, catalogue):
    """makemessages run on a copy of the project: a string added to the code (or changed) since the
    catalogue was made would come out untranslated or fuzzy; one taken out would be left over."""
    fresh = made_messages(tmp_path, catalogue.stem)
    assert problems(fresh) == []
    assert {entry.msgid for entry in fresh} == {entry.msgid for entry in polib.pofile(str(catalogue))}


# t("...") or tn("...", "...", ...), as app.js and offline.js call them (window.scorekeeperText.t too).
SCRIPT_CALL = re.compile(r"\b(tn?)\((\s*)")
LITERAL = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def script_calls(source: str) -> list[tuple[str, list[str] | None]]:
    """Each t() and tn() call of a script: its name and the literal strings it is marked with, or
    None when its words are not literals, which xgettext (and so the catalogue) cannot see."""
    source = re.sub(r"^\s*//.*$", "", source, flags=re.MULTILINE)  # comments may show calls
    source = re.sub(r"\bfunction tn?\(", "", source)  # app.js's definitions
    calls = []
    for call in SCRIPT_CALL.finditer(source):
        rest, words = source[call.end() :], []
        for _ in range(1 if call[1] == "t" else 2):
            literal = LITERAL.match(rest)
            if literal is None:
                words = None
                break
            words.append(json.loads(literal[0]))
            rest = re.sub(r"^\s*,\s*", "", rest[literal.end() :])
        calls.append((call[1], words))
    return calls


def test_the_scripts_name_their_words_only_in_literals_so_extraction_sees_them_all():
    """`t(waiting ? "a" : "b")` would reach the catalogue as "a" alone (or not at all): write
    `waiting ? t("a") : t("b")`."""
    calls = {script.name: script_calls(script.read_text(encoding="utf-8")) for script in SCRIPTS}
    assert sum(len(found) for found in calls.values()) > 30
    assert {name: [call for call in found if call[1] is None] for name, found in calls.items()} == {
        script.name: [] for script in SCRIPTS
    }


def test_every_string_the_page_scripts_say_is_translated_in_spanish():
    """Read from the scripts themselves (no gettext needed): each t() and tn() string has its
    Spanish in djangojs.po, a plural with both forms, and keeps its {fields}."""
    translated = {
        entry.msgid: entry
        for entry in polib.pofile(str(SCRIPTS_CATALOGUE))
        if entry.translated() and not entry.obsolete
    }
    missing = []
    for script in SCRIPTS:
        for name, words in script_calls(script.read_text(encoding="utf-8")):
            entry = translated.get(words[0]) if words else None
            if (
                entry is None
                or (name == "tn") != bool(entry.msgid_plural)
                or words[1:] != ([entry.msgid_plural] if entry.msgid_plural else [])
            ):
                missing.append(f"{script.name}: {name}({words})")
    assert missing == []


def test_the_scripts_catalogues_that_ship_are_the_ones_compilejsi18n_makes(tmp_path):
    """The static catalogues are committed beside the .mo they come from, so collectstatic finds
    them on a deploy with nothing to run; `make messages` writes them again after an edit."""
    call_command("compilejsi18n", "--output", str(tmp_path), verbosity=0)
    shipped = Path(settings.STATICI18N_ROOT) / settings.STATICI18N_OUTPUT_DIR
    made = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*.js"))
    assert made == [Path(code, "djangojs.js") for code, _name in settings.LANGUAGES]
    for path in made:
        assert (shipped / path).read_text(encoding="utf-8") == (tmp_path / path).read_text(encoding="utf-8"), (
            f"{path} is out of date: run `make messages` and commit it"
        )


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [("en", "django.gettext"), ("es", "Mantener la pantalla encendida")])
def test_each_page_loads_its_languages_catalogue_as_a_hashed_static_file_the_worker_keeps(client, language, words):
    """A plain <script src> (the CSP's 'self', no inline script), under the manifest storage's
    hashed name, and among the files the service worker keeps for offline use."""
    page = client.get("/rules/", headers={"accept-language": language}).content.decode()
    url = static(get_path(language))
    assert re.fullmatch(rf"/static/scorekeeper/jsi18n/{language}/djangojs\.[0-9a-f]{{12}}\.js", url)
    assert f'<script src="{url}" defer></script>' in page
    assert page.index(url) < page.index("scorekeeper/app.")  # defined before the scripts run
    assert "jsi18n/" not in page.replace(url, "")  # one language only
    worker = client.get("/sw.js").content.decode()
    assert url in json.loads(re.search(r"const CONFIG = (\{.*?\});", worker)[1])["precache"]
    catalogue = b"".join(client.get(url).streaming_content).decode()
    assert json.dumps(words)[1:-1] in catalogue
