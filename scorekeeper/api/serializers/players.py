"""Players and the account a player is linked to."""

from django.utils.translation import gettext as _
from rest_framework import serializers

from scorekeeper.models import Player

from .common import TextField, UserRefSerializer, user_ref


class PlayerSerializer(serializers.ModelSerializer):
    """A player; `scorebook` on create (default: the personal one); `user`: "me" links the
    player to the caller's account, null unlinks."""

    name = TextField(max_length=40, trim_whitespace=True)
    scorebook = serializers.IntegerField(source="scorebook_id", required=False, min_value=1, max_value=2**53)
    user = serializers.SerializerMethodField()
    archived = serializers.BooleanField(
        read_only=True, help_text="Left off pickers, boards and the players list (PATCH to change); games untouched."
    )

    class Meta:
        model = Player
        fields = ["id", "name", "scorebook", "user", "archived"]

    def get_user(self, player) -> UserRefSerializer(allow_null=True):
        return user_ref(player.user)

    def validate(self, data):
        if (
            self.instance is not None
            and data.get("scorebook_id", self.instance.scorebook_id) != self.instance.scorebook_id
        ):
            raise serializers.ValidationError({"scorebook": [_("A player stays in the scorebook it was made in.")]})
        book = self.instance.scorebook_id if self.instance is not None else self.context.get("scorebook_id")
        name = data.get("name")
        if name is not None and book is not None:
            taken = Player.objects.filter(scorebook_id=book).named(name)
            if self.instance is not None:
                taken = taken.exclude(pk=self.instance.pk)
            clash = taken.only("name", "archived").first()
            if clash is not None:
                message = (
                    _(
                        'This scorebook already has an archived player named "{name}" (names ignore case): bring them back with "archived": false.'
                    )
                    if clash.archived
                    else _('This scorebook already has a player named "{name}" (names ignore case).')
                )
                raise serializers.ValidationError({"name": [message.format(name=clash.name)]})
        return data


class PlayerLinkSerializer(serializers.Serializer):
    user = serializers.ChoiceField(choices=["me"], allow_null=True)


class PlayerPatchSerializer(serializers.Serializer):
    """What a PATCH of a player takes: a new `name` (owners and scorers), `user` "me" (link the
    player to your account) or null (unlink), `archived` (owners and scorers); a player stays in its
    scorebook."""

    name = TextField(max_length=40, trim_whitespace=True, required=False)
    user = serializers.ChoiceField(choices=["me"], allow_null=True, required=False)
    archived = serializers.BooleanField(required=False)


class PlayerArchivedSerializer(serializers.Serializer):
    archived = serializers.BooleanField()


class PlayerMergeSerializer(serializers.Serializer):
    """Merge the player into another of the same scorebook: every seat, record and rating moves to it."""

    into = serializers.IntegerField(min_value=1, max_value=2**53, help_text="The player who stays.")
