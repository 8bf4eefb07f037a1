from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination

from .query import one_value


class Pagination(PageNumberPagination):
    """`?page_size=` is a whole number from 1 to 200 and `?page=` one from 1, each sent once, or a 400
    naming it (the schema says so), never silently the default or the last value; a page past the
    last is a 404."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request):
        raw = one_value(request, self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit() and len(raw) < 16 and 1 <= int(raw) <= self.max_page_size):
            raise ValidationError(
                {
                    self.page_size_query_param: [
                        _("Send a whole number from 1 to {most}.").format(most=self.max_page_size)
                    ]
                }
            )
        return int(raw)

    def get_page_number(self, request, paginator):
        raw = one_value(request, self.page_query_param)
        if raw is None:
            return 1
        try:
            return serializers.IntegerField(min_value=1).run_validation(raw)  # DRF's words, in every language
        except ValidationError as error:
            raise ValidationError({self.page_query_param: error.detail}) from None

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"] |= {"minimum": 1, "maximum": self.max_page_size}
            elif parameter["name"] == self.page_query_param:
                parameter["schema"] |= {"minimum": 1}
        return parameters
