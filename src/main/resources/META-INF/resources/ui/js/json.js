// Job data is shown as the service stores it. JSON.parse would respell numbers (1.50 becomes
// 1.5, 1e400 becomes Infinity and then null), so the data member is cut out of the response
// text and indented as text, never parsed and printed again.

/** Index just past the JSON string that starts at text[start] (a quote). */
function skipString(text, start) {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index just past the JSON value that starts at or after start. */
function skipValue(text, start) {
  let i = start;
  let depth = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i = skipString(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return i; // the end of the enclosing object: a scalar just ended
    } else if (depth === 0 && c === ',') return i;
    i++;
  }
  return i;
}

/**
 * The raw text of each member of the JSON object in text (the service's compact output):
 * membersOf('{"a":1.50,"b":{"c":[1]}}') is Map {a → '1.50', b → '{"c":[1]}'}.
 */
export function membersOf(text) {
  const members = new Map();
  let i = text.indexOf('{') + 1;
  while (i > 0 && i < text.length) {
    const keyStart = text.indexOf('"', i);
    if (keyStart < 0) break;
    const keyEnd = skipString(text, keyStart);
    const name = JSON.parse(text.slice(keyStart, keyEnd));
    const valueStart = text.indexOf(':', keyEnd) + 1;
    const valueEnd = skipValue(text, valueStart);
    members.set(name, text.slice(valueStart, valueEnd).trim());
    i = text.indexOf(',', valueEnd) + 1; // 0 when there is no further member
  }
  return members;
}

/** Compact JSON text indented two spaces a level, its tokens (numbers above all) untouched. */
export function indent(text) {
  let out = '';
  let depth = 0;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = skipString(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      if (text[i + 1] === close) { // {} and [] stay on one line
        out += c + close;
        i++;
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') {
      out += ',' + newline();
    } else if (c === ':') {
      out += ': ';
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}
