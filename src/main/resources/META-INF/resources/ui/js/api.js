// Every call the dashboard makes goes through here: the token is added, and an answer that is
// not 2xx becomes an ApiError carrying the service's problem document, whose detail the pages
// show as it is.
import { token } from './auth.js';

/** The API's root relative to the page (/ui/ → /), so the dashboard works behind a path prefix. */
const ROOT = new URL('../', document.baseURI);

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  static async from(response) {
    let problem = null;
    try {
      problem = await response.json();
    } catch {
      // an empty or non-JSON body (a proxy's page, Quarkus' early refusals): the status says it
    }
    return new ApiError(response.status, problem);
  }
}

/** The URL of an API path ('v1/types') with query parameters; undefined ones are left out. */
export function url(path, query = {}) {
  const target = new URL(path, ROOT);
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) target.searchParams.set(name, value);
  }
  return target;
}

export function headers(extra = {}) {
  const bearer = token();
  return bearer ? { ...extra, Authorization: `Bearer ${bearer}` } : extra;
}

/**
 * Calls the API. Answers {status, text, json} — text is kept for pages that show a member as the
 * service wrote it (json.js) — or throws ApiError.
 */
export async function call(method, path, { query, body, signal } = {}) {
  const response = await fetch(url(path, query), {
    method,
    signal,
    cache: 'no-store',
    headers: headers(body === undefined ? { Accept: 'application/json' }
      : { Accept: 'application/json', 'Content-Type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await ApiError.from(response);
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : null };
}

export async function get(path, query, signal) {
  return (await call('GET', path, { query, signal })).json;
}

/** The path of a job: type and id percent-encoded as the API's naming rules require. */
export function jobPath(type, id, suffix = '') {
  return `v1/jobs/${encodeURIComponent(type)}/${encodeURIComponent(id)}${suffix}`;
}

export function typePath(type, suffix = '') {
  return `v1/types/${encodeURIComponent(type)}${suffix}`;
}
