// A typed list of tiles read as the server reads it: the round form carries the rules module's
// grammar (rules/tiles.py grammar(), the "tile-grammar" data block), and nothing here adds to it.

// A tile's name, "high-low", whichever end comes first.
export function tileName(a, b) { return a >= b ? `${a}-${b}` : `${b}-${a}`; }

let grammarBlock = null, reader = null;
function tileReader() {
  const block = document.getElementById("tile-grammar");
  if (!block) return null;
  if (block !== grammarBlock) { grammarBlock = block; reader = readerFor(JSON.parse(block.textContent)); }
  return reader;
}

function readerFor(grammar) {
  const point = (code) => `\\u{${code.toString(16)}}`;
  const anyOf = (chars) => `[${Array.from(chars, (c) => point(c.codePointAt(0))).join("")}]`;
  const digit = `[${grammar.digit_zeros.map((zero) => `${point(zero)}-${point(zero + 9)}`).join("")}]`;
  const space = anyOf(grammar.spaces), dash = anyOf(grammar.dashes), end = `(${digit}{1,${grammar.digits_per_end}})`;
  const aroundDash = new RegExp(`${space}*(${dash})${space}*`, "gu");
  const parting = new RegExp(`${anyOf(grammar.separators)}+`, "u");
  const tile = new RegExp(`^${space}*${end}${space}*${dash}${space}*${end}${space}*$`, "u");
  const value = (digits) => Array.from(digits).reduce((number, c) => {
    const code = c.codePointAt(0);
    return number * 10 + code - grammar.digit_zeros.find((zero) => zero <= code && code <= zero + 9);
  }, 0);
  // A pips box's count: a number or a sum ("12+9+4"), as rules/tiles.py read_pips reads it.
  const term = `${space}*${digit}{1,${grammar.sum_digits}}${space}*`;
  const sum = new RegExp(`^${term}(?:${anyOf(grammar.plus)}${term}){0,${grammar.sum_terms - 1}}$`, "u");
  const pipsOf = (text) => {
    const normal = text.normalize(grammar.normalize);
    if (!sum.test(normal)) return null;
    return normal.split(grammar.plus).reduce((total, part) => total + value(part.replace(new RegExp(`${space}`, "gu"), "")), 0);
  };
  // The tiles of a list (as "high-low") and the parts that are not a tile of the set.
  const tilesOf = (text) => {
    const tiles = [], refused = [];
    text.normalize(grammar.normalize).replace(aroundDash, "$1").split(parting).filter(Boolean).forEach((part) => {
      const match = tile.exec(part);
      const ends = match ? [value(match[1]), value(match[2])] : [];
      if (match && ends.every((n) => n <= grammar.highest)) tiles.push(tileName(ends[0], ends[1])); else refused.push(part);
    });
    return { tiles, refused };
  };
  return { tilesOf, pipsOf };
}

// {tiles, refused} of a typed list; null on a page without the grammar (an older round's form).
export function readTiles(text) {
  const read = tileReader();
  return read ? read.tilesOf(text) : null;
}

// The pips a box holds, typed as a number or a sum ("12+9+4": 25); null when it reads as neither,
// undefined on a page without the grammar.
export function readPips(text) {
  const read = tileReader();
  return read ? read.pipsOf(text) : undefined;
}

// The tiles a pips box holds when a list of tiles was typed there ("8-6 3-2"), as the tiles box
// reads them (forms.PipsField); null when the box holds something else.
export function tilesInPipsBox(text) {
  if (readPips(text) !== null) return null;
  const read = readTiles(text);
  return read && read.tiles.length && !read.refused.length ? read.tiles : null;
}

// The pips of tiles named "high-low".
export function pipsOfTiles(tiles) {
  return tiles.reduce((total, name) => total + name.split("-").reduce((sum, end) => sum + Number(end), 0), 0);
}

window.scorekeeperTiles = { read: readTiles, pips: readPips };  // for the browser tests
