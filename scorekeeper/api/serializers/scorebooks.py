"""Scorebooks, their members and invites."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from scorekeeper.models import Membership, Role, Scorebook

from .common import TextField


class MemberSerializer(serializers.ModelSerializer):
    user = serializers.IntegerField(source="user_id")
    email = serializers.EmailField(source="user.email")

    class Meta:
        model = Membership
        fields = ["user", "email", "role"]


class ScorebookSerializer(serializers.ModelSerializer):
    """A scorebook as its member sees it: `role` is the caller's. Needs memberships prefetched."""

    name = TextField(max_length=80)
    personal = serializers.BooleanField(read_only=True)
    role = serializers.ChoiceField(choices=Role.choices, read_only=True)
    members = MemberSerializer(many=True, read_only=True, source="memberships")
    time_zone = serializers.CharField(
        read_only=True, help_text="Where its members play (an IANA name): the days of its seasons are days there."
    )

    class Meta:
        model = Scorebook
        fields = ["id", "name", "personal", "role", "members", "time_zone", "created_at"]
        read_only_fields = ["created_at"]


class ScorebookPatchSerializer(serializers.Serializer):
    """What a PATCH of a scorebook takes (owners): a new `name`, a `time_zone` (an IANA name), or both."""

    name = TextField(max_length=80, required=False)
    time_zone = serializers.CharField(max_length=64, required=False, trim_whitespace=True)

    def validate(self, data):
        if not data:
            raise serializers.ValidationError({"name": [_("Give a new name or a time zone.")]})
        return data


class MemberRoleSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=Role.choices)


class InviteCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=[Role.SCORER, Role.VIEWER])


class InviteSerializer(serializers.Serializer):
    code = serializers.CharField()
    url = serializers.URLField()
    qr_svg_url = serializers.URLField()
    role = serializers.CharField()
    expires_at = serializers.DateTimeField()
