// Jobs filtered by type, state, result and group, a page at a time, and lookup by id. The
// filters live in the hash (#/jobs?type=email&state=finished&result=failed&cursor=…), so a
// filtered page can be bookmarked and the browser's back button walks back through pages.
import { get } from '../api.js';
import { problem } from '../confirm.js';
import { h, jobRoute, replace, route, segment, table, waiting } from '../dom.js';
import * as format from '../format.js';

const TYPE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const FILTERS = ['type', 'state', 'result', 'group', 'order', 'limit'];

function select(name, label, options, value) {
  return h('label', null, label, h('select', { name },
    options.map(([optionValue, text]) => h('option', { value: optionValue, selected: optionValue === (value ?? '') }, text))));
}

function filterForm(query) {
  const form = h('form', { class: 'filters', id: 'filters' },
    h('label', null, 'Type', h('input', { name: 'type', value: query.get('type') ?? '', placeholder: 'email or email* (any)', autocomplete: 'off' })),
    select('state', 'State', [['', 'any'], ['pending', 'pending'], ['running', 'running'], ['finished', 'finished']], query.get('state')),
    select('result', 'Result', [['', 'any'], ['succeeded', 'succeeded'], ['failed', 'failed'], ['cancelled', 'cancelled']], query.get('result')),
    h('label', null, 'Group', h('input', { name: 'group', value: query.get('group') ?? '', placeholder: 'any', autocomplete: 'off' })),
    // An empty group field means any group; the default group ("") needs saying apart.
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'defaultGroup', checked: query.get('group') === '' }),
      'default group only'),
    // The finished jobs of one type, the latest finished first (GET /v1/jobs/{type}?order=recent).
    select('order', 'Order', [['', 'by id'], ['recent', 'latest finished first']], query.get('order')),
    select('limit', 'Per page', [['', '100'], ['20', '20'], ['500', '500'], ['1000', '1000']], query.get('limit')),
    h('button', { type: 'submit' }, 'Filter'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const params = {};
    for (const name of FILTERS) {
      const text = String(data.get(name) ?? '');
      // A group is named exactly: "g0 " and " " are groups of their own, not "g0" and any group.
      const value = name === 'group' ? text : text.trim();
      if (value !== '') params[name] = value;
    }
    if (data.get('defaultGroup')) params.group = '';
    // A result only exists on finished jobs; saying it implies the state.
    if (params.result) params.state = 'finished';
    location.hash = route('/jobs', params);
  });
  return form;
}

function lookupForm(query) {
  const form = h('form', { class: 'filters', id: 'lookup' },
    h('label', null, 'Type', h('input', { name: 'type', required: true, value: query.get('type') ?? '', autocomplete: 'off' })),
    h('label', null, 'Id', h('input', { name: 'id', required: true, autocomplete: 'off' })),
    h('button', { type: 'submit' }, 'Open job'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    location.hash = jobRoute(String(data.get('type')).trim(), String(data.get('id')));
  });
  return form;
}

/**
 * One page of the listing: an exact type name uses GET /v1/jobs/{type}; a glob, or no type,
 * the listing across types, GET /v1/jobs?type=…
 */
function fetchPage(query, signal) {
  const type = query.get('type');
  const params = {};
  for (const name of ['state', 'result', 'group', 'order', 'limit', 'cursor']) {
    if (query.has(name)) params[name] = query.get(name);
  }
  if (type && TYPE_NAME.test(type)) return get(`v1/jobs/${segment(type)}`, params, signal);
  return get('v1/jobs', { ...params, type: type || undefined }, signal);
}

/** Beside "pending": held back by dependencies, so not due whatever its scheduled time says. */
function waitingMarker(job) {
  if (!waiting(job)) return null;
  const n = job.waitingFor.length;
  return [' ', h('span', { class: 'badge waiting', 'data-waiting': String(n), title: `not due: waits for ${n} job${n === 1 ? '' : 's'} to succeed` },
    `waits for ${n}`)];
}

/** A listing by finish time shows that time where the others show the scheduled one. */
function jobRow(job, byFinish) {
  const at = byFinish ? job.finishedAt : job.scheduledAt;
  return h('tr', { 'data-job': job.id },
    h('td', null, job.type),
    h('td', null, h('a', { href: jobRoute(job.type, job.id) }, job.id)),
    h('td', null, h('span', { class: `badge ${job.result ?? job.state}` }, job.result ?? job.state), waitingMarker(job)),
    h('td', null, job.group === '' ? h('span', { class: 'muted' }, 'default') : job.group),
    h('td', null, job.priority),
    h('td', { title: at ?? '' }, format.relative(at)),
    h('td', { class: 'num' }, format.count(job.attempt)),
    h('td', null, h('span', { class: 'error-text' }, job.lastError ?? '')));
}

export async function render(main, { query, signal }) {
  const results = h('div', { id: 'results' });
  replace(main, h('h1', null, 'Jobs'), filterForm(query), results,
    h('h2', null, 'Open a job by id'), lookupForm(query));
  if (!query.has('type') && !query.has('state') && !query.has('group')) {
    replace(results, h('p', { class: 'muted' }, 'Name a type (or a glob such as email*) or a state to list jobs.'));
    return;
  }
  if (query.get('order') === 'recent' && !TYPE_NAME.test(query.get('type') ?? '')) {
    replace(results, h('p', { class: 'muted' }, 'Latest finished first lists the finished jobs of one type: name it exactly, without a glob.'));
    return;
  }
  await list(results, query, signal);
}

/**
 * The page of the listing the query names, with when it was read and a button that reads it again
 * (a listing is not polled: rows moving under the reader's eyes would lose their place).
 */
async function list(results, query, signal, focusRefresh = false) {
  try {
    const page = await fetchPage(query, signal);
    const filters = Object.fromEntries(FILTERS.filter((n) => query.has(n)).map((n) => [n, query.get(n)]));
    const byFinish = query.get('order') === 'recent';
    const again = refreshButton(results, query, signal);
    replace(results,
      h('p', { class: 'muted small', id: 'list-read' },
        `Read ${new Date().toISOString().slice(11, 19)} UTC. `, again),
      page.jobs.length === 0 ? h('p', { class: 'muted' }, page.next ? 'No matching job in this stretch of the listing; the next page may hold some.' : 'No matching job.')
        : table(['Type', 'Id', 'State', 'Group', 'Priority', byFinish ? 'Finished' : 'Scheduled', 'Attempt', 'Last error'],
          page.jobs.map((job) => jobRow(job, byFinish)), { id: 'job-list' }),
      h('nav', { class: 'paging', 'aria-label': 'Pages' },
        query.has('cursor') ? h('a', { href: route('/jobs', filters) }, 'First page') : null,
        page.next ? h('a', { href: route('/jobs', { ...filters, cursor: page.next }), rel: 'next' }, 'Next page') : null));
    if (focusRefresh) again.focus();
  } catch (error) {
    if (signal.aborted) return;
    // A failed read keeps the way to read again.
    const again = refreshButton(results, query, signal);
    replace(results, problem(error), h('p', null, again));
    if (focusRefresh) again.focus();
  }
}

/** Reads the listing again in place; a click while a read is under way waits for it. */
function refreshButton(results, query, signal) {
  const again = h('button', { type: 'button', id: 'refresh' }, 'Refresh');
  again.addEventListener('click', () => {
    if (again.getAttribute('aria-disabled') === 'true') return;
    again.setAttribute('aria-disabled', 'true');
    list(results, query, signal, true);
  });
  return again;
}
