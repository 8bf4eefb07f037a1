"""/healthz/: django-health-check's report of the database, the shared cache and Redis.

The database and the cache must answer (503 with Retry-After otherwise). Redis is reported but
not required: while it is down the cache answers from the database (scorekeeper.caches.backends), every
page and sign-in works, and a load balancer must not take the node out for it.
"""

from django.conf import settings
from health_check.contrib.redis import Redis
from health_check.views import HealthCheckView
from redis.asyncio import Redis as AsyncRedis

from .http.errors import RETRY_AFTER_OUTAGE

CHECKS = ["health_check.checks.Database", "health_check.checks.Cache"]
if settings.REDIS_URL:
    CHECKS.append(
        (Redis, {"client_factory": lambda: AsyncRedis.from_url(settings.REDIS_URL, socket_connect_timeout=1)})
    )


class Health(HealthCheckView):
    async def get(self, request, *args, **kwargs):
        response = await super().get(request, *args, **kwargs)
        required = [result for result in self.results if not isinstance(result.check, Redis)]
        if any(result.error for result in required):
            response.status_code = 503
            response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
        else:
            response.status_code = 200  # a Redis outage is reported in the body, not an outage of the app
        return response


healthz = Health.as_view(checks=CHECKS)
