// The bearer token lives in sessionStorage: it is gone when the tab closes, other tabs do not
// see it, and it never goes into a URL (hash routes included), a log or the page's markup.

const KEY = 'jobfoundry.token';

export function token() {
  return sessionStorage.getItem(KEY);
}

export function signIn(value) {
  sessionStorage.setItem(KEY, value);
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}
