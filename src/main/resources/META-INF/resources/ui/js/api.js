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

/** Request headers carrying the bearer token (by default the one signed in now), if any. */
export function headers(extra = {}, bearer = token()) {
  return bearer ? { ...extra, Authorization: `Bearer ${bearer}` } : extra;
}

let refusedListener = null;

/**
 * listener(error, bearer) hears of every 401, with the token the refused call carried (null for
 * none): the service no longer takes it (removed from its configuration, or replaced), which no
 * page can mend on its own. GET /v1/me reads its 401 as its answer and is not told.
 */
export function onRefused(listener) {
  refusedListener = listener;
}

/** The ApiError of an answer that is not 2xx; a 401 is told to onRefused's listener, unless quiet. */
export async function failure(response, bearer, { quiet = false } = {}) {
  const error = await ApiError.from(response);
  if (error.status === 401 && !quiet) refusedListener?.(error, bearer);
  return error;
}

/**
 * Calls the API. Answers {status, text, json} — text is kept for pages that show a member as the
 * service wrote it (json.js) — or throws ApiError. quiet: a 401 is the caller's to read, see failure().
 */
export async function call(method, path, { query, body, signal, quiet } = {}) {
  const bearer = token();
  const response = await fetch(url(path, query), {
    method,
    signal,
    cache: 'no-store',
    headers: headers(body === undefined ? { Accept: 'application/json' }
      : { Accept: 'application/json', 'Content-Type': 'application/json' }, bearer),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response, bearer, { quiet });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : null };
}

export async function get(path, query, signal, options = {}) {
  return (await call('GET', path, { query, signal, ...options })).json;
}

/** The path of a job: type and id percent-encoded as the API's naming rules require. */
export function jobPath(type, id, suffix = '') {
  return `v1/jobs/${encodeURIComponent(type)}/${encodeURIComponent(id)}${suffix}`;
}

export function typePath(type, suffix = '') {
  return `v1/types/${encodeURIComponent(type)}${suffix}`;
}
