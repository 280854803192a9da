// Who the dashboard is talking as, and what that lets it do. The service decides every call;
// this only keeps buttons a token may not use off the page.
import { ApiError, get } from './api.js';
import { signOut, token } from './auth.js';


/** What each button needs, by the contract's role table. */
const NEEDS = {
  cancel: ['producer', 'admin'],
  retry: ['producer', 'admin'],
  remove: ['producer', 'admin'],
  pause: ['admin'],
  deleteType: ['admin'],
  bulk: ['admin'],
};

let current = null; // {name, roles, types} once known; null when the service wants a token first
let refused = null; // the service's 401 or 403 when it wants a (different) token: sign-in is needed
let tokenRefused = false; // was that a 401 to a token this tab had signed in with?
let known = false; // did the last GET /v1/me answer (who we are, or a refusal)?
let failure = null; // why it did not: the service was unreachable or answered 5xx

/**
 * Asks the service who we are (GET /v1/me). With no token configured it answers "anonymous" with
 * every role to a loopback client; otherwise the token's name, roles and type globs, or 401/403
 * when the dashboard must sign in first. Answers that refusal, or null. When the service cannot
 * say (down, 5xx), who we are is unknown: known() is false and failure() says why.
 */
export async function load() {
  try {
    current = await get('v1/me', undefined, undefined, { quiet: true });
    refused = null;
    tokenRefused = false;
  } catch (error) {
    current = null;
    if (error instanceof ApiError && error.status === 401) {
      refuse(error);
      return error;
    }
    if (error instanceof ApiError && error.status === 403) {
      refused = error;
      tokenRefused = false;
    } else {
      refused = null;
      known = false;
      failure = error;
      return null;
    }
  }
  known = true;
  failure = null;
  return refused;
}

/**
 * The service answered 401 (to GET /v1/me or any call): no token, or one it no longer takes.
 * Who we were is forgotten, and a refused token is dropped, as the sign-in page drops one the
 * service does not know: keeping it would only draw more 401s.
 */
export function refuse(error) {
  current = null;
  refused = error;
  tokenRefused = token() !== null;
  known = true;
  failure = null;
  signOut();
}

/** False until GET /v1/me has answered, and again while the service cannot answer it. */
export function isKnown() {
  return known;
}

/** Why GET /v1/me went unanswered, while isKnown() is false. */
export function failed() {
  return failure;
}

/** True when the service said who we are: pages may be shown and counts sampled. */
export function accepted() {
  return current !== null;
}

export function me() {
  return current;
}

/** True when the service answered 401/403 to /v1/me: nothing can be shown before a sign-in. */
export function needsSignIn() {
  return refused !== null;
}

/** Why the service wants a token (its 401 or 403 problem), or null. */
export function refusal() {
  return refused;
}

/** True when that refusal was of the token this tab had signed in with. */
export function refusedToken() {
  return tokenRefused;
}

export function signedInWithToken() {
  return token() !== null;
}

/** '*' and '?' as in the contract's type globs. */
export function globMatches(glob, name) {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*').replaceAll('?', '.');
  return new RegExp(`^${pattern}$`).test(name);
}

/** May the current token use this button, on this type (when it names one)? */
export function can(action, type) {
  if (!current) return false;
  if (!NEEDS[action].some((role) => current.roles.includes(role))) return false;
  return type === undefined || current.types == null || current.types.some((glob) => globMatches(glob, type));
}
