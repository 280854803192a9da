// Bulk retry of failed jobs (POST /v1/bulk, action retry): every finished/failed job of the types
// a glob matches (and of one group, if given) runs again as a fresh run.
import { call } from '../api.js';
import { actionButton } from '../confirm.js';
import { h, replace } from '../dom.js';
import * as session from '../session.js';

export async function render(main, { query }) {
  const outcome = h('div', { class: 'outcome', id: 'bulk-outcome' });
  const typeInput = h('input', { name: 'type', required: true, value: query.get('type') ?? '', placeholder: 'email or email*', autocomplete: 'off' });
  const groupInput = h('input', { name: 'group', placeholder: 'every group', autocomplete: 'off' });
  const limitInput = h('input', { name: 'limit', type: 'number', min: 1, max: 10000, value: 1000 });
  const filter = () => {
    const value = { type: typeInput.value.trim(), state: 'finished', result: 'failed' };
    if (groupInput.value !== '') value.group = groupInput.value;
    return value;
  };
  // The confirmation repeats what will be retried, as the form says it now.
  const what = () => {
    const { type, group } = filter();
    return `Every failed job of ${/[*?]/.test(type) ? 'the types matching' : 'type'} ${type}`
      + `${group === undefined ? ', in every group' : group === '' ? ', in the default group' : `, in group ${group}`}`
      + `, at most ${Number(limitInput.value)}, runs again as a fresh run.`;
  };
  const button = actionButton('Retry failed jobs', {
    confirmation: () => ({ title: 'Retry failed jobs?', message: what(), confirmLabel: 'Retry them' }),
    perform: () => call('POST', 'v1/bulk', { body: { action: 'retry', filter: filter(), limit: Number(limitInput.value) } }),
    done: (answer) => `Matched ${answer.json.matched} failed jobs; ${answer.json.changed} run again.`
      + (answer.json.matched >= Number(limitInput.value) ? ' More may be left: run it again for the next ones.' : ''),
    outcome,
    ready: () => form.reportValidity(), // a type must be named before the confirmation opens
  });
  const form = h('form', { class: 'filters', id: 'bulk' },
    h('label', null, 'Type or glob', typeInput), h('label', null, 'Group', groupInput),
    h('label', null, 'At most', limitInput), button);
  form.addEventListener('submit', (event) => event.preventDefault()); // Enter in a field: nothing to send
  replace(main, h('h1', null, 'Bulk retry'),
    h('p', null, 'Runs failed jobs again: every job of the matching types that finished ', h('code', null, 'failed'),
      ' becomes pending, due now, with its attempts counted from zero.'),
    session.can('bulk') ? form : h('p', { class: 'muted', id: 'bulk-not-allowed' }, 'Bulk actions need the admin role.'),
    outcome);
}
