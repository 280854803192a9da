// Sign-in with a bearer token. The token goes to sessionStorage only (auth.js); the service is
// asked at once who it names (GET /v1/me), and a token it does not know is dropped again.
import * as auth from '../auth.js';
import { problem } from '../confirm.js';
import { h, replace } from '../dom.js';
import * as session from '../session.js';

/** What the service said to GET /v1/me, in words: refused, served without a token, or whose token. */
function why() {
  if (session.needsSignIn()) {
    return [h('p', null, session.refusedToken()
      ? 'The service refused the token this tab was signed in with (it may have been removed or replaced); sign in again:'
      : 'The service asks for a token before it shows anything:'), problem(session.refusal())];
  }
  const me = session.me();
  const who = h('strong', null, me.name);
  const roles = me.roles.join(', ');
  if (!session.signedInWithToken()) {
    return h('p', { class: 'muted' }, 'The service answers without a token here, as ', who, ' (', roles,
      '): it does so when no token is configured. Sign in to act as a token\'s name and roles.');
  }
  // With no token configured the service ignores the one sent and answers as "anonymous".
  return h('p', { class: 'muted' }, 'Signed in: the service names this tab\'s token ', who, ' (', roles, ')',
    me.name === 'anonymous' ? ', the name it gives every caller when no token is configured' : '',
    '. Sign in again to act as another token.');
}

export async function render(main, { refreshSession, navigate }) {
  const outcome = h('div', { class: 'outcome' });
  const input = h('input', { name: 'token', type: 'password', required: true, autocomplete: 'off', id: 'token' });
  const form = h('form', { class: 'signin', id: 'signin' },
    h('label', null, 'Bearer token', input),
    h('button', { type: 'submit' }, 'Sign in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    // A token is visible ASCII (an HTTP header carries nothing else): a pasted one may end with
    // its newline, and one with a typographic quote or a space inside is no token at all; the
    // browser would refuse to send it, which would look like a service that cannot be reached.
    const token = input.value.trim();
    input.value = '';
    if (!/^[\x21-\x7e]+$/.test(token)) {
      replace(outcome, h('p', { class: 'problem', role: 'alert' },
        'A token is made of visible ASCII characters only, without spaces: check what was pasted.'));
      return;
    }
    auth.signIn(token);
    const refusal = await refreshSession();
    if (refusal) {
      auth.signOut();
      await refreshSession();
      replace(outcome, problem(refusal));
      return;
    }
    // Signed in on the way to another page (the service wanted a token first): show that page.
    navigate(location.hash.startsWith('#/signin') ? '#/' : location.hash);
  });
  replace(main, h('h1', null, 'Sign in'), why(), form, outcome);
  input.focus();
}
