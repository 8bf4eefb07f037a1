// The page scripts: small enhancements, by feature, each a module of its own; every page works
// without them. base.html loads this one (<script type="module">); it brings in the others in the
// order their listeners must be registered: offline.js last, so that the round form's check before
// Save (following.js) sees a submit before the outbox takes it. Delegated listeners survive htmx swaps.
import "./confirm.js";  // first: Cancel stops a form before any other listener sees it
import "./base.js";
import "./new-game.js";
import "./odds.js";
import "./round-entry.js";
import "./paper-grid.js";
import "./tile-picker.js";
import "./hand-photo-offer.js";  // hand-photo.js itself once a photo is chosen
import "./wake-lock.js";
import "./live.js";
import "./tv.js";  // after live.js: TV mode is set before the sheet is fitted to the screen
import "./following.js";
import "./share.js";
import "./game-over-picture.js";
import "./offline.js";

// A club night's TV alone loads its fitting (after live.js has set TV mode: an import comes after these).
if (document.querySelector("#live.night-live")) import("./night-tv.js");

// Tests (and anything else) can tell that the enhancements are in place.
document.documentElement.dataset.js = "ready";
