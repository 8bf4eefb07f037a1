"""What several API answers share: accounts as references, and the bound on any number."""

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from rest_framework import serializers

# Big enough for any real value, small enough that no database column overflows.
BIG = 1_000_000


class TextField(serializers.CharField):
    """Text as the schema says: a JSON string. DRF's CharField would take 12 for "12"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


# A character str.strip() keeps: anything but the 29 that str.isspace() names, spelled out (\s differs
# between Python and the ECMA regexes of JSON Schema validators).
NOT_SPACE = r"[^\t-\r\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"


class TextFieldSchema(OpenApiSerializerFieldExtension):
    """A TextField that trims and refuses blank text takes a string with a character besides
    whitespace: `"  "` is a 400 like `""`, so the schema says so (a `pattern`, next to minLength 1)."""

    target_class = TextField

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        if direction == "request" and self.target.trim_whitespace and not self.target.allow_blank:
            schema["pattern"] = NOT_SPACE
        return schema


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


def user_ref(user) -> dict | None:
    return None if user is None else {"id": user.pk, "email": user.email}
