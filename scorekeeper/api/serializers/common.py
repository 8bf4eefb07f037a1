"""What several API answers share: accounts as references, and the bound on any number."""

from rest_framework import serializers

# Big enough for any real value, small enough that no database column overflows.
BIG = 1_000_000


class TextField(serializers.CharField):
    """Text as the schema says: a JSON string. DRF's CharField would take 12 for "12"."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


def user_ref(user) -> dict | None:
    return None if user is None else {"id": user.pk, "email": user.email}
