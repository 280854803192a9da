// Actions that change jobs ask first, in the page's own <dialog> (keyboard-reachable, Escape
// cancels), and show the service's problem detail when it refuses.
import { ApiError } from './api.js';
import { h, replace } from './dom.js';

/** Resolves true when the operator confirms. */
export function confirm({ title, message, confirmLabel }) {
  const dialog = document.getElementById('confirm');
  dialog.querySelector('#confirm-title').textContent = title;
  dialog.querySelector('#confirm-message').textContent = message;
  dialog.querySelector('#confirm-ok').textContent = confirmLabel;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'confirm'), { once: true });
  });
}

/**
 * A button that confirms, calls the API and reports. perform() does the call; done(result) says
 * what happened. Refusals (4xx/5xx problems) and network failures are shown in outcome, the
 * element the page reserves for the action's result. ready() may stop it first (an invalid form).
 */
export function actionButton(label, { confirmation, perform, done, outcome, danger = false, ready = () => true }) {
  const button = h('button', { type: 'button', class: danger ? 'danger' : null }, label);
  button.addEventListener('click', async () => {
    if (button.getAttribute('aria-disabled') === 'true') return;
    // A confirmation may be made at the click, from what a form says then.
    if (!ready() || !(await confirm(typeof confirmation === 'function' ? confirmation() : confirmation))) return;
    // Not disabled: a disabled button drops the keyboard focus to the page's top, where a keyboard
    // user would start again; aria-disabled says the same to a screen reader and keeps it here.
    button.setAttribute('aria-disabled', 'true');
    replace(outcome);
    try {
      const result = await perform();
      // Focusable, so that a page whose redraw replaced the button can give the keyboard the report.
      replace(outcome, h('p', { class: 'ok', role: 'status', tabindex: '-1' }, done(result)));
    } catch (error) {
      replace(outcome, problem(error));
    } finally {
      button.removeAttribute('aria-disabled');
    }
  });
  return button;
}

/** A refusal as the operator should read it: the service's own detail, and its status. */
export function problem(error) {
  if (error instanceof ApiError) {
    const title = error.problem?.title ?? 'Refused';
    return h('p', { class: 'problem', role: 'alert', tabindex: '-1' },
      h('strong', null, `${error.status} ${title}: `), error.message);
  }
  return h('p', { class: 'problem', role: 'alert', tabindex: '-1' }, `The service could not be reached: ${error.message}`);
}
