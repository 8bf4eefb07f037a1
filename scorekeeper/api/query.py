"""Query parameters as the schema has them: one value each.

`?scorebook=1&scorebook=2` is a 400 naming `scorebook`, never silently the last of them (which is
what QueryDict.get gives): the client meant something the API cannot do, and should hear so.
"""

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError


def one_each(request, names) -> dict[str, str]:
    """The parameters among `names` that were sent, each with its one value (a plain dict, for a
    query serializer); a 400 naming every one sent more than once."""
    query = request.query_params
    repeated = {name: len(query.getlist(name)) for name in names if len(query.getlist(name)) > 1}
    if repeated:
        message = _("Send this parameter once, not {count} times.")
        raise ValidationError({name: [message.format(count=count)] for name, count in repeated.items()})
    return {name: query[name] for name in names if name in query}


def one_value(request, name: str, default: str | None = None) -> str | None:
    """The parameter's one value, or `default` when it was not sent; sent twice, a 400 naming it."""
    return one_each(request, [name]).get(name, default)
