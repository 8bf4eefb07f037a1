"""Scorebooks, their members and invites."""

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

    class Meta:
        model = Scorebook
        fields = ["id", "name", "personal", "role", "members", "created_at"]
        read_only_fields = ["created_at"]


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
