// The dashboard's entry: finds out who we are, starts the counts sampler, and renders the page
// the location hash names. Hash routes keep the service's side to static files.
import * as api from './js/api.js';
import * as auth from './js/auth.js';
import { h, replace } from './js/dom.js';
import { problem } from './js/confirm.js';
import * as sampler from './js/sampler.js';
import * as session from './js/session.js';
import * as overview from './js/pages/overview.js';
import * as typePage from './js/pages/type.js';
import * as jobsPage from './js/pages/jobs.js';
import * as jobPage from './js/pages/job.js';
import * as recurringPage from './js/pages/recurring.js';
import * as bulkPage from './js/pages/bulk.js';
import * as signInPage from './js/pages/signin.js';

const ROUTES = [
  [/^\/$/, overview],
  [/^\/type\/([^/]+)$/, typePage],
  [/^\/jobs$/, jobsPage],
  [/^\/job\/([^/]+)\/([^/]+)$/, jobPage],
  [/^\/recurring$/, recurringPage],
  [/^\/bulk$/, bulkPage],
  [/^\/signin$/, signInPage],
];

const main = document.getElementById('page');
let current = null; // the AbortController of the page on screen: aborting it stops its polls and streams

function parse(hash) {
  const text = hash.replace(/^#/, '') || '/';
  const [path, query = ''] = text.split('?', 2);
  return { path, query: new URLSearchParams(query) };
}

/** How long the unavailable page waits before asking who we are again: doubling, up to the last. */
const FIRST_RETRY_MS = 2000;
const LAST_RETRY_MS = 30000;
let retryWait = FIRST_RETRY_MS;

async function show() {
  current?.abort();
  current = new AbortController();
  const { signal } = current;
  if (!session.isKnown()) {
    // Without the answer of GET /v1/me the header would name no one and the role-gated buttons
    // would be missing, so no page is drawn until it comes; every navigation asks again.
    await refreshSession();
    if (signal.aborted) return;
    if (!session.isKnown()) {
      unavailable(signal);
      return;
    }
  }
  retryWait = FIRST_RETRY_MS;
  const { path, query } = parse(location.hash);
  const match = ROUTES.map(([pattern, page]) => [path.match(pattern), page]).find(([m]) => m);
  renderWho();
  if (!match) {
    notFound('No page here.');
    return;
  }
  const [found, page] = match;
  let params;
  try {
    params = found.slice(1).map(decodeURIComponent);
  } catch {
    // A hand-typed or cut-off link (%E0%A4%A): no type or id is named, so there is nothing to ask
    // the service, and "could not be reached" would send the operator looking at the wrong thing.
    notFound('This link is malformed: a part of it is not valid percent-encoding.');
    return;
  }
  if (params.some((part) => part === '.' || part === '..')) {
    // No type or job is named so (the service refuses such names), and a URL built from one would
    // lose the segment: the page would show, and act on, whatever the shortened path names.
    notFound('No type or job is named "." or "..".');
    return;
  }
  const target = session.needsSignIn() && page !== signInPage ? signInPage : page;
  try {
    await target.render(main, { params, query, signal, refreshSession, navigate });
  } catch (error) {
    if (signal.aborted) return;
    replace(main, h('h1', null, 'Could not load this page'), problem(error));
  }
  if (signal.aborted) return;
  // Each page its own title (tabs and history tell them apart), and the keyboard and screen
  // readers start at the new page rather than wherever the link that led here was, unless the
  // page put the focus somewhere itself (the sign-in field).
  const heading = main.querySelector('h1')?.textContent.trim();
  document.title = heading ? `${heading} · Jobfoundry` : 'Jobfoundry';
  if (!main.contains(document.activeElement)) main.focus({ preventScroll: true });
}

/** The service could not say who we are: says why, and asks again by itself, less often each time. */
function unavailable(signal) {
  const wait = retryWait;
  retryWait = Math.min(retryWait * 2, LAST_RETRY_MS);
  replace(main, h('h1', null, 'The service is unavailable'), problem(session.failed()),
    h('p', { class: 'muted' }, `Asking again in ${wait / 1000} s, or when you open a page.`));
  const timer = setTimeout(show, wait);
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
}

function notFound(why) {
  replace(main, h('h1', null, 'Not found'), h('p', null, why, ' ', h('a', { href: '#/' }, 'Overview')));
}

/** The header's corner: who we are and the sign-in or sign-out control. */
function renderWho() {
  const who = document.getElementById('who');
  const me = session.me();
  // The page itself says why to a token that may not (a link typed in), but no menu offers it.
  document.querySelector('a[href="#/bulk"]').hidden = Boolean(me) && !session.can('bulk');
  const parts = [];
  if (me) parts.push(h('span', { class: 'muted', 'data-who': me.name }, `${me.name} · ${me.roles.join(', ')}`));
  if (session.signedInWithToken()) {
    const out = h('button', { type: 'button', class: 'link' }, 'Sign out');
    out.addEventListener('click', async () => {
      auth.signOut();
      await refreshSession();
      navigate('#/');
    });
    parts.push(out);
  } else {
    parts.push(h('a', { href: '#/signin' }, 'Sign in'));
  }
  replace(who, parts);
}

/**
 * Asks the service who we are (again, after a sign-in or out); answers its refusal, if any. When
 * the service cannot say, session.isKnown() is false and the next show() asks again.
 */
async function refreshSession() {
  // Who we are may change here (a sign-in or out): counts sampled until now belong to who we were,
  // and none are polled for until the service has said who we are now. Stopped before asking, so
  // that no poll goes out with a token half changed.
  sampler.stop();
  const refusal = await session.load();
  renderWho();
  if (session.accepted()) await sampler.start();
  return refusal;
}

/** Shows the page of a route, also when it is the one already in the address bar. */
function navigate(hash) {
  if (location.hash === hash) show();
  else location.hash = hash;
}

// A 401 to any call: the token was removed or replaced in the service's configuration (or, served
// without a token before, the service now wants one). The page on screen and the sampled counts
// belong to who we were; the sign-in page takes their place. A late 401 to a token signed out of
// since, or one after the first, changes nothing.
api.onRefused((error, bearer) => {
  if (!session.accepted() || bearer !== auth.token()) return;
  session.refuse(error);
  sampler.stop();
  renderWho();
  show();
});

window.addEventListener('hashchange', show);
show(); // asks who we are first
