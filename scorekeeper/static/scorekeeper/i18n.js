// The scripts' words in the page's language, from Django's JavaScript catalogue: base.html loads
// the static file of the page's language (jsi18n/<lang>/djangojs.js, made from
// locale/<lang>/LC_MESSAGES/djangojs.po by `make messages`) before the modules, and it defines
// django.gettext and django.ngettext. t("English {name}", {name: ...}) and tn(singular, plural,
// count) look a string up by its English text and fill its {name} fields ({count} too for tn).
// `makemessages -d djangojs` finds every t("...") and tn("...", "...") whose first arguments are
// string literals: write `cond ? t("a") : t("b")`, never t(cond ? "a" : "b") (docs/translating.md).

function catalogue() {
  const django = window.django;
  return django && typeof django.gettext === "function" ? django : null;  // English without one
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (params && name in params ? String(params[name]) : whole));
}

export function t(english, params) {
  const django = catalogue();
  return fill(django ? django.gettext(english) : english, params);
}

export function tn(singular, plural, count, params) {
  const django = catalogue();
  const text = django ? django.ngettext(singular, plural, count) : (count === 1 ? singular : plural);
  return fill(text, Object.assign({ count: count }, params));
}

export function lang() {
  return document.documentElement.lang || undefined;
}
