from django.urls import register_converter


class IdConverter:
    """A positive integer that fits a database integer column: longer digit strings match no URL."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
