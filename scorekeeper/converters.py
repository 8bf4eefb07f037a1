from django.urls import register_converter

# The largest id any client may send: 18 digits always fit a 64-bit integer column.
MAX_ID = 999_999_999_999_999_999


def parse_id(value) -> int | None:
    """An id from text (a form, a query string), or None when it is not one that can exist."""
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        return None
    return int(text)


class IdConverter:
    """A positive integer that fits a database integer column: longer digit strings match no URL."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
