"""What several API answers share: accounts as references, and the bound on any number."""

from rest_framework import serializers

# Big enough for any real value, small enough that no database column overflows.
BIG = 1_000_000


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    email = serializers.EmailField()


def user_ref(user) -> dict | None:
    return None if user is None else {"id": user.pk, "email": user.email}
