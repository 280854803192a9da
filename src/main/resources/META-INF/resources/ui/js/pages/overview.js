// Overview: every type with its counts, throughput, the age of its oldest due job and whether
// it is paused, redrawn at each poll of the sampler, with the last hour as small bar charts.
import { bars } from '../chart.js';
import { problem } from '../confirm.js';
import { h, replace, route, segment, table } from '../dom.js';
import * as format from '../format.js';
import * as sampler from '../sampler.js';

const STATES = ['pending', 'due', 'running', 'succeeded', 'failed', 'cancelled'];

/** Where a count leads: the jobs listing filtered to what the count counts. */
function filterOf(state) {
  if (state === 'pending' || state === 'due') return { state: 'pending' };
  if (state === 'running') return { state: 'running' };
  // Finished ones the latest first: what an operator following a count wants to see first.
  return { state: 'finished', result: state, order: 'recent' };
}

function typeRow(type, stale) {
  const name = type.type;
  // A screen reader going from link to link hears what each number counts, not "12, 0, 3".
  const cells = STATES.map((state) => {
    const n = type.counts?.[state] ?? 0;
    return h('td', { class: 'num', 'data-count': state },
      h('a', { href: route('/jobs', { type: name, ...filterOf(state) }), 'aria-label': `${format.count(n)} ${state} job${n === 1 ? '' : 's'} of ${name}` },
        format.count(type.counts?.[state])));
  });
  const rate = stale ? null : sampler.perMinute(name);
  return h('tr', { 'data-type': name },
    h('th', { scope: 'row' }, h('a', { href: `#/type/${segment(name)}` }, name)),
    h('td', null, type.paused ? h('span', { class: 'badge paused' }, 'paused') : h('span', { class: 'badge' }, 'active')),
    cells,
    h('td', { class: 'num', 'data-rate': '' }, rate === null ? '—' : String(rate)),
    h('td', { title: type.oldestDueAt ?? '', 'data-oldest': type.oldestDueAt ?? '' },
      'oldestDueAt' in type ? format.relative(type.oldestDueAt) : 'n/a'),
    h('td', null, bars(sampler.lastHour(name), { width: 120, height: 24, label: `${name}: jobs finished per minute, last hour` })));
}

/**
 * Redraws after each poll. The table is built anew, so the link the keyboard was on is focused
 * again afterwards: a keyboard user is not thrown back to the top every few seconds.
 */
function redraw(container) {
  const focused = container.contains(document.activeElement) ? document.activeElement.getAttribute('href') : null;
  draw(container);
  if (focused !== null) [...container.querySelectorAll('a[href]')].find((a) => a.getAttribute('href') === focused)?.focus();
}

function draw(container) {
  const sample = sampler.latest();
  const failure = sampler.error();
  if (!sample) {
    replace(container, failure ? problem(failure) : h('p', { class: 'muted' }, 'Loading…'));
    return;
  }
  const types = [...sample.types.values()];
  // While the service cannot be read the last counts stay up, greyed and said to be old, and no
  // throughput is claimed for a minute nobody could see.
  const rate = failure ? null : sampler.perMinute();
  replace(container,
    failure ? problem(failure) : null,
    failure ? h('p', { class: 'note', id: 'stale' },
      `These are the counts of ${new Date(sample.at).toISOString().slice(11, 19)} UTC, the last the service answered.`) : null,
    h('section', { class: failure ? 'summary stale' : 'summary' },
      h('div', null, h('div', { class: 'big', 'data-total-rate': '' }, rate === null ? '—' : String(rate)),
        h('div', { class: 'muted' }, 'jobs finished in the last minute')),
      h('figure', null, bars(sampler.lastHour(), { width: 480, height: 60, label: 'All types: jobs finished per minute, last hour' }),
        h('figcaption', { class: 'muted' }, 'Finished per minute over the last hour, since this page was opened'))),
    types.length === 0
      ? h('p', { class: 'muted' }, 'No types yet: a type appears with its first job or its first PUT /v1/types/{type}.')
      : table(['Type', 'State', ...STATES, 'Per min', 'Oldest due', 'Last hour'], types.map((type) => typeRow(type, failure)),
        { id: 'types', class: failure ? 'stale' : null }),
    h('p', { class: 'muted small' }, `Updated ${new Date(sample.at).toISOString().slice(11, 19)} UTC, every ${sampler.INTERVAL_MS / 1000} s.`));
}

export async function render(main, { signal }) {
  const container = h('div');
  replace(main, h('h1', null, 'Overview'), container);
  const unsubscribe = sampler.subscribe(() => redraw(container));
  signal.addEventListener('abort', unsubscribe, { once: true });
  draw(container);
  await sampler.start();
}
