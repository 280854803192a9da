// Building the page without markup strings: every value, above all a job's data, an id, a
// group or an error text, becomes a text node, so nothing a producer or worker wrote can turn
// into elements or script. There is no innerHTML anywhere in the dashboard.

/**
 * h('a', {href: '#/x', class: 'c'}, 'text', child) — an element with attributes and children.
 * Attributes named on* are refused: handlers are attached with addEventListener (and the page's
 * Content-Security-Policy would block inline ones anyway).
 */
export function h(tag, attributes, ...children) {
  const element = tag.startsWith('svg:')
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (/^on/i.test(name)) throw new Error(`h(): event handler attribute ${name}; use addEventListener`);
    element.setAttribute(name, value === true ? '' : String(value));
  }
  append(element, children);
  return element;
}

/** Appends children: nodes as they are, strings and numbers as text, arrays flattened, null skipped. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces everything inside parent with the children. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

/** A table with a header row; rows are arrays of cells (nodes or text). */
export function table(headings, rows, attributes) {
  return h('div', { class: 'table-wrap' },
    h('table', attributes,
      h('thead', null, h('tr', null, headings.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', null, rows)));
}

/** "#/jobs?type=email&state=finished": a hash route with query parameters, empty ones kept when asked. */
export function route(path, params = {}) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null) query.set(name, value);
  }
  const text = query.toString();
  return '#' + path + (text ? '?' + text : '');
}

/** The segment of a hash route that names a type or an id, which may hold any character but '/'. */
export const segment = encodeURIComponent;

/** The hash route of one job's page. */
export function jobRoute(type, id) {
  return `#/job/${segment(type)}/${segment(id)}`;
}

/** A pending job held back by its dependencies (`waitingFor`) rather than by its time. */
export function waiting(job) {
  return job.state === 'pending' && (job.waitingFor?.length ?? 0) > 0;
}
