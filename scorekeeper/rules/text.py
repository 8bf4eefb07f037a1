"""The words the rules speak, translatable without Django.

A message is a `Text`: a string (so callers can show it as it is) that also keeps its
template and parameters, and can be rendered again through any translator, an object
with `gettext(message)` and `ngettext(singular, plural, count)` such as the module
`django.utils.translation`. Parameters may be Texts themselves; they are translated too.

`_()` and `ngettext()` below mark the templates for xgettext (both are among its default
Python keywords), so `makemessages` finds them here like anywhere else. The app installs
Django's translator at start-up (`use`), so a message made during a request is already in
the request's language; on its own (tests, scripts) the module speaks English.
"""

from collections.abc import Mapping
from typing import Any, Protocol


class Translator(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, count: int) -> str: ...


class English:
    """The templates as written."""

    @staticmethod
    def gettext(message: str) -> str:
        return message

    @staticmethod
    def ngettext(singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural


_translator: Translator = English()


def use(translator: Translator) -> None:
    """Render every Text made from now on through `translator`."""
    global _translator
    _translator = translator


class Text(str):
    """A message with its template and parameters; its string value is the rendering made
    when it was created."""

    template: str
    plural: str | None
    count: int | None
    params: Mapping[str, Any]

    def __new__(cls, template: str, params: Mapping[str, Any], plural: str | None = None, count: int | None = None):
        self = super().__new__(cls, _render(_translator, template, plural, count, params))
        self.template, self.plural, self.count, self.params = template, plural, count, dict(params)
        return self

    def render(self, translator: Translator) -> str:
        return _render(translator, self.template, self.plural, self.count, self.params)

    def __reduce__(self):
        return Text, (self.template, self.params, self.plural, self.count)


def _render(translator: Translator, template: str, plural: str | None, count: int | None, params) -> str:
    pattern = translator.gettext(template) if plural is None else translator.ngettext(template, plural, count)
    values = {key: value.render(translator) if isinstance(value, Text) else value for key, value in params.items()}
    return pattern.format(**values) if values else pattern


def _(template: str, /, **params: Any) -> Text:
    """A translatable message; `{name}` fields are filled from `params`."""
    return Text(template, params)


def ngettext(singular: str, plural: str, count: int, /, **params: Any) -> Text:
    """A message with a singular and a plural form, chosen by `count`."""
    return Text(singular, params, plural, count)


def listing(items: list[str]) -> Text | str:
    """ "a", "a and b", "a, b and c" in the active language."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])
