"""Scorebooks, their members and invites."""

from django.db import transaction
from django.db.models import F, Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.models import Invite, Membership, Scorebook
from scorekeeper.selectors import scorebook_for
from scorekeeper.services import scorebooks, seasons

from ..idempotency import idempotent
from ..serializers import InviteCreateSerializer, InviteSerializer, MemberRoleSerializer, ScorebookSerializer
from ..serializers.scorebooks import ScorebookPatchSerializer
from .common import (
    IDEMPOTENT,
    errors_for,
    paginated,
)


def scorebooks_for(user):
    return Scorebook.objects.for_user(user).prefetch_related(
        Prefetch("memberships", Membership.objects.select_related("user").order_by("joined_at", "id"))
    )


class ScorebookList(APIView):
    pagination_class = generics.ListAPIView.pagination_class

    @extend_schema(responses={200: ScorebookSerializer(many=True), **errors_for(401, 404)})
    def get(self, request):
        Scorebook.personal_for(request.user)
        return paginated(
            self,
            scorebooks_for(request.user).order_by(F("personal_of").desc(nulls_last=True), "name", "id"),
            ScorebookSerializer,
        )

    @extend_schema(
        request=ScorebookSerializer,
        parameters=IDEMPOTENT,
        responses={201: ScorebookSerializer, **errors_for(400, 401, 409, 422)},
    )
    @idempotent
    def post(self, request):
        data = ScorebookSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        book = scorebooks.create(by=request.user, name=data.validated_data["name"])
        body = ScorebookSerializer(scorebooks_for(request.user).get(pk=book.pk)).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": f"{request.path}{book.pk}/"})


class ScorebookDetail(APIView):
    @extend_schema(responses={200: ScorebookSerializer, **errors_for(401, 404)})
    def get(self, request, pk):
        return Response(ScorebookSerializer(get_object_or_404(scorebooks_for(request.user), pk=pk)).data)

    @extend_schema(
        request=ScorebookPatchSerializer,
        responses={200: ScorebookSerializer, **errors_for(400, 401, 403, 404)},
        description="Rename the scorebook or change its `time_zone` (owners): an IANA name such as "
        "`Europe/Madrid`; its seasons' days are then days there.",
    )
    @transaction.atomic
    def patch(self, request, pk):
        book = scorebook_for(request.user, pk)
        data = ScorebookPatchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "name" in data.validated_data:
            scorebooks.rename(book=book, role=book.role, name=data.validated_data["name"])
        if "time_zone" in data.validated_data:
            seasons.set_time_zone(book=book, role=book.role, time_zone=data.validated_data["time_zone"])
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=pk)).data)

    @extend_schema(responses={204: None, **errors_for(401, 403, 404, 409)})
    def delete(self, request, pk):
        book = scorebook_for(request.user, pk)
        scorebooks.delete(book=book, role=book.role)
        return Response(status=status.HTTP_204_NO_CONTENT)


def invite_links(request, invite: Invite) -> dict:
    from django.urls import reverse

    return {
        "code": invite.code,
        "url": request.build_absolute_uri(reverse("invite", kwargs={"code": invite.code})),
        "qr_svg_url": request.build_absolute_uri(reverse("invite_qr", kwargs={"code": invite.code})),
        "role": invite.role,
        "expires_at": invite.expires_at,
    }


class InviteCreate(APIView):
    @extend_schema(
        request=InviteCreateSerializer,
        parameters=IDEMPOTENT,
        responses={201: InviteSerializer, **errors_for(400, 401, 403, 404, 409, 422)},
        description="A single-use link (and QR code) that makes whoever accepts it a member with this role; 7 days.",
    )
    @idempotent
    def post(self, request, pk):
        book = scorebook_for(request.user, pk)
        data = InviteCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        invite = scorebooks.invite(book=book, role=book.role, by=request.user, invite_role=data.validated_data["role"])
        return Response(InviteSerializer(invite_links(request, invite)).data, status=status.HTTP_201_CREATED)


class InviteAccept(APIView):
    @extend_schema(
        request=None,
        parameters=IDEMPOTENT,
        responses={200: ScorebookSerializer, **errors_for(401, 404, 409, 422)},
        description="Join the scorebook with the invite's role. Unknown, expired or already used: 404 (a code is used "
        "once, ever: the member who used it cannot use it again after leaving, removal or a change of role).",
    )
    @idempotent
    def post(self, request, code):
        book = scorebooks.accept(code=code, user=request.user)
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=book.pk)).data)


class MemberDetail(APIView):
    @extend_schema(
        request=MemberRoleSerializer,
        responses={200: ScorebookSerializer, **errors_for(400, 401, 403, 404, 409)},
        description="An owner changes a member's role (another owner included); the last owner stays one. "
        "`role` is required.",
    )
    def patch(self, request, pk, user_pk):
        book = scorebook_for(request.user, pk)
        data = MemberRoleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        scorebooks.set_role(book=book, role=book.role, user_id=user_pk, new_role=data.validated_data["role"])
        return Response(ScorebookSerializer(scorebooks_for(request.user).get(pk=pk)).data)

    @extend_schema(
        responses={204: None, **errors_for(401, 403, 404, 409)},
        description="An owner removes a member; a member leaves with their own id. The last owner cannot leave.",
    )
    def delete(self, request, pk, user_pk):
        book = scorebook_for(request.user, pk)
        scorebooks.remove_member(book=book, role=book.role, by=request.user, user_id=user_pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
