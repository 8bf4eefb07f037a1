"""Counting a hand from a photo: the photo in, the tiles found in it out. Nothing is stored or logged:
the photo is read in memory (http.photos keeps it off the disk) and dropped with the request."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.http import photos
from scorekeeper.vision import Hand, count_hand, image

from .common import ErrorSerializer, errors_for


class HandPhotoSerializer(serializers.Serializer):
    image = serializers.FileField(
        help_text="The photo: JPEG, PNG, WebP or HEIC, at most 15 MB and 40 megapixels. Read in memory, never stored."
    )
    tile_set = serializers.IntegerField(min_value=6, max_value=18, help_text="The set's highest double (6 to 18).")


class CountedTileSerializer(serializers.Serializer):
    halves = serializers.ListField(child=serializers.IntegerField(min_value=0), min_length=2, max_length=2)
    box = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        min_length=4,
        max_length=4,
        help_text="x, y, width, height in the photo's pixels, after its EXIF orientation.",
    )
    confidence = serializers.FloatField(min_value=0, max_value=1)


class DoubtSerializer(serializers.Serializer):
    tile = serializers.IntegerField(min_value=0, help_text="The tile's index in `tiles`.")
    code = serializers.CharField(help_text="above_set, found_twice or unclear (stable, in English).")
    reason = serializers.CharField(help_text="Why, in words for the player (in the Accept-Language asked for).")


class CountedHandSerializer(serializers.Serializer):
    tiles = CountedTileSerializer(many=True)
    pips = serializers.IntegerField(min_value=0, help_text="The sum of every tile's halves, doubted tiles included.")
    doubts = DoubtSerializer(many=True)


# What image.BadImage's codes say, in the request's language.
REFUSALS = {
    "empty": lambda: _("The file is empty."),
    "too_large": photos.too_large_message,
    "too_many_pixels": lambda: _("The photo has more than {megapixels} megapixels.").format(
        megapixels=image.MAX_PIXELS // 1_000_000
    ),
    "not_an_image": lambda: _("This is not a photo: send a JPEG, PNG, WebP or HEIC image."),
    "damaged": lambda: _("The photo could not be read: the file is damaged or cut short."),
}
# Why the detector doubts a tile (vision.Doubt's codes), in the request's language.
DOUBTS = {
    "above_set": lambda highest: _("A half is above {highest}, the set's highest value.").format(highest=highest),
    "found_twice": lambda highest: _("This tile was found twice, and a set holds each tile once."),
    "unclear": lambda highest: _("This tile was hard to read: check it."),
}
WAIT = OpenApiParameter(
    "Retry-After",
    {"type": "integer", "minimum": 0},
    OpenApiParameter.HEADER,
    response=[429, 503],
    required=True,
    description="Seconds to wait before trying again.",
)


def why(code: str, tile_set: int) -> str:
    return DOUBTS[code](tile_set) if code in DOUBTS else code


def counted(hand: Hand, photo: image.Photo, tile_set: int) -> dict:
    return {
        "tiles": [
            {"halves": list(tile.halves), "box": list(photo.original_box(tile.box)), "confidence": tile.confidence}
            for tile in hand.tiles
        ],
        "pips": hand.pips,
        "doubts": [
            {"tile": doubt.tile, "code": doubt.reason, "reason": why(doubt.reason, tile_set)} for doubt in hand.doubts
        ],
    }


class HandCount(APIView):
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": HandPhotoSerializer},
        parameters=[WAIT],
        responses={
            200: CountedHandSerializer,
            **errors_for(400, 401),
            429: OpenApiResponse(
                ErrorSerializer, description="Over your photos a minute (code throttled): try again after Retry-After."
            ),
            503: OpenApiResponse(
                ErrorSerializer,
                description="This server is counting as many photos as it may at once (code counting_busy): "
                "try again after Retry-After.",
            ),
        },
        description="The tiles of a hand read from a photo, each with its halves, its box and how sure the "
        "reading is; `pips` sums them all. A half above the set's highest value, a tile found twice or one hard to "
        "read is listed in `doubts` (its index and why) for the player to check, never passed over silently. No tile found: 200 with an empty `tiles`. Not an "
        "image, too large (15 MB, 40 megapixels) or damaged: 400 naming `image`. The photo is never stored.",
    )
    def post(self, request):
        given = HandPhotoSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        if wait := photos.retry_after(request.user):
            return refused(429, _("Too many photos: try again in {seconds} seconds.").format(seconds=wait), wait)
        with photos.counting_slot() as free:
            if not free:
                return refused(503, _("Counting other photos: try again in a moment."), 1)
            try:
                photo = image.decode(given.validated_data["image"].read())
            except image.BadImage as bad:
                raise ValidationError({"image": [REFUSALS[bad.code]()]}) from None
            tile_set = given.validated_data["tile_set"]
            hand = count_hand(photo.pixels, tile_set=tile_set)
        return Response(counted(hand, photo, tile_set))


def refused(status: int, detail: str, wait: int) -> Response:
    code = "throttled" if status == 429 else "counting_busy"
    return Response({"detail": detail, "code": code}, status=status, headers={"Retry-After": str(wait)})
