// How times and numbers read on the page. Times stay UTC, as the API writes them, with the
// distance from now beside them, which is what an operator scanning a queue wants first.

export function time(value) {
  if (!value) return '—';
  return value.replace('T', ' ').replace(/(\.\d+)?Z$/, 'Z');
}

/** "3 min ago" / "in 2 h" for an RFC 3339 time, relative to now. */
export function relative(value, now = Date.now()) {
  if (!value) return '—';
  const seconds = Math.round((Date.parse(value) - now) / 1000);
  const magnitude = duration(Math.abs(seconds));
  if (Math.abs(seconds) < 1) return 'now';
  return seconds < 0 ? `${magnitude} ago` : `in ${magnitude}`;
}

export function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

export function count(value) {
  return value === undefined || value === null ? '—' : Number(value).toLocaleString('en-US');
}

/** A settings value as one line: numbers and strings as they are, objects and arrays as JSON. */
export function setting(value) {
  if (value === null) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
