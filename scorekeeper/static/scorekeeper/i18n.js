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

// A moment as the pages write one (scorekeeper/clock.py): on the table's own clock, the time zone
// of the page's scorebook (#app-status data-zone, inside <main>, which htmx swaps), in the one format of each language: "Sat 28 Nov,
// 08:21", "sáb 28 nov, 08:21" (24-hour, never "08:21 AM").
export function moment(iso) {
  const when = new Date(iso);
  if (isNaN(when)) return "";
  const status = document.getElementById("app-status");
  const zone = (status && status.dataset.zone) || undefined;
  let parts;
  try {
    parts = new Intl.DateTimeFormat(lang(), { timeZone: zone, weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(when);
  } catch (error) {  // a zone this browser does not know: the phone's own
    parts = new Intl.DateTimeFormat(lang(), { weekday: "short", day: "numeric", month: "short",
      hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(when);
  }
  const part = (type) => (parts.find((each) => each.type === type) || { value: "" }).value.replace(/\.$/, "");
  return `${part("weekday")} ${part("day")} ${part("month")}, ${part("hour")}:${part("minute")}`;
}
