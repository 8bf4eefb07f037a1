
'use strict';
{
  const globals = this;
  const django = globals.django || (globals.django = {});

  
  django.pluralidx = function(n) {
    const v = (n != 1);
    if (typeof v === 'boolean') {
      return v ? 1 : 0;
    } else {
      return v;
    }
  };
  

  /* gettext library */

  django.catalog = django.catalog || {};
  
  const newcatalog = {
    "+{count} more": [
      "+{count} m\u00e1s",
      "+{count} m\u00e1s"
    ],
    "A new version is ready.": "Hay una versi\u00f3n nueva lista.",
    "A round was undone: this round is now {double}.": "Se deshizo una ronda: esta ronda ahora empieza con el {double}.",
    "Another phone saved round {number} with {double} a moment ago.": "Otro tel\u00e9fono acaba de anotar la ronda {number} con el {double}.",
    "Back online: this page is from {time}.": "De nuevo en l\u00ednea: esta p\u00e1gina es de las {time}.",
    "Check the {count} marked tile first": [
      "Revisa primero la {count} ficha marcada",
      "Revisa primero las {count} fichas marcadas"
    ],
    "Close": "Cerrar",
    "Compare": "Comparar",
    "Copied: paste it in a chat.": "Copiado: p\u00e9galo en un chat.",
    "Counting from a photo needs a connection: type the pips, or try again when you are online.": "Contar con una foto necesita conexi\u00f3n: escribe los puntos, o int\u00e9ntalo de nuevo cuando tengas conexi\u00f3n.",
    "Counting the tiles\u2026": "Contando las fichas\u2026",
    "Discard": "Descartar",
    "Discard the change at the table saved on this phone ({change})? It has not reached the server.": "\u00bfDescartar el cambio en la mesa guardado en este tel\u00e9fono ({change})? No ha llegado al servidor.",
    "Discard the round {double} saved on this phone? It has not reached the server.": "\u00bfDescartar la ronda {double} guardada en este tel\u00e9fono? No ha llegado al servidor.",
    "Dismiss": "Cerrar",
    "Done": "Listo",
    "Enter round {double}": "Anotar la ronda {double}",
    "Fix": "Corregir",
    "Keep the screen on": "Mantener la pantalla encendida",
    "Keep theirs": "Quedarme con la suya",
    "Leave TV mode": "Salir del modo TV",
    "Log in again to send it.": "Vuelve a iniciar sesi\u00f3n para enviarla.",
    "No tile found: drag across each tile on the photo to add it.": "No se encontr\u00f3 ninguna ficha: arrastra sobre cada ficha de la foto para a\u00f1adirla.",
    "Not updating: reload the page": "No se actualiza: vuelve a cargar la p\u00e1gina",
    "Offline.": "Sin conexi\u00f3n.",
    "Offline: last updated {time}.": "Sin conexi\u00f3n: actualizado por \u00faltima vez a las {time}.",
    "One half": "Una mitad",
    "Other half": "La otra mitad",
    "Pick both halves of this tile, then Done.": "Elige las dos mitades de esta ficha y luego Listo.",
    "Reload": "Recargar",
    "Remove this tile": "Quitar esta ficha",
    "Round {number}": "Ronda {number}",
    "Rounds you save wait on this phone.": "Las rondas que guardes esperan en este tel\u00e9fono.",
    "Save anyway": "Guardar de todos modos",
    "Screen lock unavailable": "No se puede mantener la pantalla encendida",
    "Screen stays on": "La pantalla sigue encendida",
    "Select the link and copy it.": "Selecciona el enlace y c\u00f3pialo.",
    "Show the latest": "Ver lo m\u00e1s reciente",
    "Sign in again to count from a photo.": "Vuelve a iniciar sesi\u00f3n para contar con una foto.",
    "TV mode": "Modo TV",
    "Tap a tile to correct it. Drag across a missed tile to add it.": "Toca una ficha para corregirla. Arrastra sobre una ficha que falte para a\u00f1adirla.",
    "The game changed since this change was entered: nothing was saved. Fix it or discard it.": "La partida cambi\u00f3 desde que se anot\u00f3 este cambio: no se guard\u00f3 nada. Corr\u00edgelo o desc\u00e1rtalo.",
    "The game changed since this round was entered: nothing was saved. Compare it with the game as it is now.": "La partida cambi\u00f3 desde que se anot\u00f3 esta ronda: no se guard\u00f3 nada. Comp\u00e1rala con la partida tal como est\u00e1 ahora.",
    "The photo could not be counted.": "No se pudo contar la foto.",
    "The photo could not be counted: try again, or type the pips.": "No se pudo contar la foto: int\u00e9ntalo de nuevo, o escribe los puntos.",
    "The photo, {count} tile marked": [
      "La foto, {count} ficha marcada",
      "La foto, {count} fichas marcadas"
    ],
    "The server refused this round ({status}).": "El servidor rechaz\u00f3 esta ronda ({status}).",
    "This game is over: this round cannot be saved.": "La partida ha terminado: esta ronda no se puede guardar.",
    "This live link was stopped": "Se detuvo este enlace en vivo",
    "Tile {number}: {tile}": "Ficha {number}: {tile}",
    "Use {double}": "Usar el {double}",
    "Use {pips}": "Usar {pips}",
    "You may not record rounds in this game (or your session ended: log in again).": "No puedes anotar rondas en esta partida (o tu sesi\u00f3n termin\u00f3: vuelve a iniciar sesi\u00f3n).",
    "check: {reason}": "revisar: {reason}",
    "game over": "partida terminada",
    "held the 0-0": "ten\u00eda el 0-0",
    "holds the 0-0": "tiene el 0-0",
    "live": "en vivo",
    "new: pick its halves": "nueva: elige sus mitades",
    "not a tile of this set": "no es una ficha de este juego",
    "not a tile: {parts}": "no es una ficha: {parts}",
    "not saved by the server": "el servidor no la guard\u00f3",
    "offline": "sin conexi\u00f3n",
    "out": "sali\u00f3",
    "out on a double": "sali\u00f3 con un doble",
    "pick": "elige",
    "reconnecting\u2026": "reconectando\u2026",
    "seat {number}": "asiento {number}",
    "waiting to sync": "esperando para sincronizar",
    "{count} round saved on this phone has not reached the server and will be lost. Log out anyway?": [
      "{count} ronda guardada en este tel\u00e9fono no ha llegado al servidor y se perder\u00e1. \u00bfCerrar sesi\u00f3n de todos modos?",
      "{count} rondas guardadas en este tel\u00e9fono no han llegado al servidor y se perder\u00e1n. \u00bfCerrar sesi\u00f3n de todos modos?"
    ],
    "{count} round waiting to sync.": [
      "{count} ronda esperando para sincronizar.",
      "{count} rondas esperando para sincronizar."
    ],
    "{count} tile": [
      "{count} ficha",
      "{count} fichas"
    ],
    "{count} tile found: {pips} pips.": [
      "{count} ficha encontrada: {pips} puntos.",
      "{count} fichas encontradas: {pips} puntos."
    ],
    "{doubles} is open again: saving {double} skips it.": [
      "El {doubles} vuelve a estar libre: guardar con el {double} se lo salta.",
      "{doubles} vuelven a estar libres: guardar con el {double} se los salta."
    ],
    "{double} (taken)": "{double} (anotado)",
    "{double} can no longer start this round.": "El {double} ya no puede abrir esta ronda.",
    "{name} joins": "Se une {name}",
    "{name} leaves": "Se va {name}",
    "{name} saved round {number} with {double} a moment ago.": "{name} acaba de anotar la ronda {number} con el {double}.",
    "{name} takes over from {other}": "{name} toma el relevo de {other}",
    "{name} undid round {number}: this round is now {double}.": "{name} deshizo la ronda {number}: esta ronda ahora empieza con el {double}.",
    "{name}'s tiles": "Fichas de {name}",
    "{name}'s tiles from a photo": "Fichas de {name} en una foto",
    "{percent} to win": "{percent} de ganar",
    "{pips} pips": "{pips} puntos",
    "{words} This form is now for round {number} ({double}).": "{words} Este formulario es ahora para la ronda {number} ({double})."
  };
  for (const key in newcatalog) {
    django.catalog[key] = newcatalog[key];
  }
  

  if (!django.jsi18n_initialized) {
    django.gettext = function(msgid) {
      const value = django.catalog[msgid];
      if (typeof value === 'undefined') {
        return msgid;
      } else {
        return (typeof value === 'string') ? value : value[0];
      }
    };

    django.ngettext = function(singular, plural, count) {
      const value = django.catalog[singular];
      if (typeof value === 'undefined') {
        return (count == 1) ? singular : plural;
      } else {
        return value.constructor === Array ? value[django.pluralidx(count)] : value;
      }
    };

    django.gettext_noop = function(msgid) { return msgid; };

    django.pgettext = function(context, msgid) {
      let value = django.gettext(context + '\x04' + msgid);
      if (value.includes('\x04')) {
        value = msgid;
      }
      return value;
    };

    django.npgettext = function(context, singular, plural, count) {
      let value = django.ngettext(context + '\x04' + singular, context + '\x04' + plural, count);
      if (value.includes('\x04')) {
        value = django.ngettext(singular, plural, count);
      }
      return value;
    };

    django.interpolate = function(fmt, obj, named) {
      if (named) {
        return fmt.replace(/%\(\w+\)s/g, function(match){return String(obj[match.slice(2,-2)])});
      } else {
        return fmt.replace(/%s/g, function(match){return String(obj.shift())});
      }
    };


    /* formatting library */

    django.formats = {
    "DATETIME_FORMAT": "j \\d\\e F \\d\\e Y \\a \\l\\a\\s H:i",
    "DATETIME_INPUT_FORMATS": [
      "%d/%m/%Y %H:%M:%S",
      "%d/%m/%Y %H:%M:%S.%f",
      "%d/%m/%Y %H:%M",
      "%d/%m/%y %H:%M:%S",
      "%d/%m/%y %H:%M:%S.%f",
      "%d/%m/%y %H:%M",
      "%Y-%m-%d %H:%M:%S",
      "%Y-%m-%d %H:%M:%S.%f",
      "%Y-%m-%d %H:%M",
      "%Y-%m-%d"
    ],
    "DATE_FORMAT": "j \\d\\e F \\d\\e Y",
    "DATE_INPUT_FORMATS": [
      "%d/%m/%Y",
      "%d/%m/%y",
      "%Y-%m-%d"
    ],
    "DECIMAL_SEPARATOR": ",",
    "FIRST_DAY_OF_WEEK": 1,
    "MONTH_DAY_FORMAT": "j \\d\\e F",
    "NUMBER_GROUPING": 3,
    "SHORT_DATETIME_FORMAT": "d/m/Y H:i",
    "SHORT_DATE_FORMAT": "d/m/Y",
    "THOUSAND_SEPARATOR": "\u00a0",
    "TIME_FORMAT": "H:i",
    "TIME_INPUT_FORMATS": [
      "%H:%M:%S",
      "%H:%M:%S.%f",
      "%H:%M"
    ],
    "YEAR_MONTH_FORMAT": "F \\d\\e Y"
  };

    django.get_format = function(format_type) {
      const value = django.formats[format_type];
      if (typeof value === 'undefined') {
        return format_type;
      } else {
        return value;
      }
    };

    /* add to global namespace */
    globals.pluralidx = django.pluralidx;
    globals.gettext = django.gettext;
    globals.ngettext = django.ngettext;
    globals.gettext_noop = django.gettext_noop;
    globals.pgettext = django.pgettext;
    globals.npgettext = django.npgettext;
    globals.interpolate = django.interpolate;
    globals.get_format = django.get_format;

    django.jsi18n_initialized = true;
  }
};

