"""The static files' storage: whitenoise's compressed manifest storage (hashed names, served
forever), which also reads the page scripts as the ES modules they are.

The page scripts (static/scorekeeper/*.js) import each other by relative URL ("./follow.js").
Django's manifest storage rewrites those imports to the hashed names only when asked
(`support_js_module_import_aggregation`); it is asked here for our own scripts alone, so a
third-party file is never read as a module it is not (a bundle's `import("./x")` in a string
would stop collectstatic)."""

from django.contrib.staticfiles.storage import HashedFilesMixin
from whitenoise.storage import CompressedManifestStaticFilesStorage

_MODULE_IMPORTS = HashedFilesMixin._js_module_import_aggregation_patterns[1]


class StaticStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
    _js_module_import_aggregation_patterns = ("scorekeeper/*.js", _MODULE_IMPORTS)
