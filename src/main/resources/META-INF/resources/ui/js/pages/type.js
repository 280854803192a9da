// One type: its settings and counts, pause and resume (and deletion, once no job uses it), its
// fairness groups with their counts, and its failed jobs with their last errors.
import { call, get, typePath } from '../api.js';
import { actionButton, problem } from '../confirm.js';
import { h, replace, route, segment, table } from '../dom.js';
import * as format from '../format.js';
import * as session from '../session.js';
import { INTERVAL_MS } from '../sampler.js';

/** Members shown elsewhere on the page; every other member of the type object is a setting. */
const NOT_SETTINGS = new Set(['type', 'counts', 'paused', 'oldestDueAt']);
const FAILURES_SHOWN = 20;

/** Offered only while the type has no job at all: the service refuses it otherwise (409). */
function deleteButton(type, gone, outcome) {
  const name = type.type;
  const jobs = Object.values(type.counts ?? {}).reduce((sum, n) => sum + n, 0);
  if (jobs > 0 || !session.can('deleteType', name)) return null;
  return actionButton('Delete type', {
    danger: true,
    confirmation: { title: `Delete ${name}?`, message: 'No job uses it. Its settings and pause go, and it leaves the overview; its next job registers it again with the defaults.', confirmLabel: 'Delete' },
    perform: () => call('DELETE', typePath(name)),
    done: () => { gone(); return `${name} was deleted.`; },
    outcome,
  });
}

function header(type, refresh, gone, outcome) {
  const name = type.type;
  const pausing = !type.paused;
  const button = session.can('pause', name) ? actionButton(pausing ? 'Pause' : 'Resume', {
    confirmation: pausing
      ? { title: `Pause ${name}?`, message: 'Workers get no job of this type until it is resumed. Jobs can still be added.', confirmLabel: 'Pause' }
      : { title: `Resume ${name}?`, message: 'Waiting workers get its due jobs at once.', confirmLabel: 'Resume' },
    perform: () => call('POST', typePath(name, pausing ? '/pause' : '/resume')),
    done: (answer) => { refresh(); return answer.json.paused ? `${name} is paused.` : `${name} is running.`; },
    outcome,
  }) : null;
  return [
    h('h1', null, 'Type ', h('code', null, name), ' ',
      h('span', { class: type.paused ? 'badge paused' : 'badge', 'data-paused': String(Boolean(type.paused)) },
        type.paused ? 'paused' : 'active')),
    h('div', { class: 'actions' }, button,
      h('a', { href: route('/jobs', { type: name }) }, 'All jobs'),
      session.can('bulk', name) ? h('a', { href: route('/bulk', { type: name }) }, 'Retry failed jobs…') : null,
      deleteButton(type, gone, outcome)),
    outcome,
  ];
}

function counts(type) {
  const c = type.counts ?? {};
  return h('dl', { class: 'counts' }, Object.entries(c).map(([state, n]) =>
    h('div', { 'data-count': state }, h('dt', null, state), h('dd', null, format.count(n)))),
  h('div', null, h('dt', null, 'oldest due'),
    h('dd', { title: type.oldestDueAt ?? '' }, 'oldestDueAt' in type ? format.relative(type.oldestDueAt) : 'n/a')));
}

/** concurrency and rateLimit in words; every other setting as the service wrote it. */
function settingValue(name, value) {
  if (name === 'concurrency' && (value === null || typeof value === 'object')) {
    const max = value?.max ?? null;
    const perGroup = value?.perGroup ?? null;
    return [max === null ? 'unlimited for the type' : `at most ${format.count(max)} running for the type`,
      perGroup === null ? 'unlimited per group' : `at most ${format.count(perGroup)} per group`].join(' · ');
  }
  if (name === 'rateLimit' && (value === null || typeof value === 'object')) {
    if (value === null) return 'unlimited';
    return `at most ${format.count(value.count)} starts per ${value.seconds} s${value.perGroup ? ' in each group' : ' for the type'}`;
  }
  return h('code', null, format.setting(value));
}

function settings(type) {
  const rows = Object.entries(type).filter(([name]) => !NOT_SETTINGS.has(name));
  return h('section', null, h('h2', null, 'Settings'),
    h('dl', { class: 'fields', id: 'settings' }, rows.map(([name, value]) =>
      h('div', { 'data-setting': name }, h('dt', null, name), h('dd', null, settingValue(name, value))))));
}

/** "at its limit" when count running jobs leave no room under max (null: unlimited). */
function full(running, max) {
  return max !== null && max !== undefined && typeof running === 'number' && running >= max;
}

/** Says so when the type runs as many jobs as its concurrency.max allows (or more, after a lowered limit). */
function limitNote(type) {
  const running = type.counts?.running;
  const max = type.concurrency?.max;
  if (!full(running, max)) return null;
  return h('p', { class: 'note', id: 'at-limit' },
    `At its concurrency limit: ${format.count(running)} running, at most ${format.count(max)}. `,
    running > max ? 'Nothing new starts until enough have stopped (the limit was lowered).' : 'Nothing new starts until one stops.');
}

/** The groups, a page at a time (GET /v1/types/{type}/groups). */
function groups(name, perGroup, signal) {
  const section = h('section', { id: 'groups' }, h('h2', null, 'Fairness groups'));
  const body = h('div');
  section.append(body);
  const load = async (cursor) => {
    try {
      const page = await get(typePath(name, '/groups'), { limit: 50, cursor }, signal);
      const rows = page.groups.map((g) => h('tr', { 'data-group': g.group },
        h('th', { scope: 'row' }, h('a', { href: route('/jobs', { type: name, group: g.group }) },
          g.group === '' ? '(default group)' : g.group)),
        ['pending', 'due', 'running'].map((state) => h('td', { class: 'num', 'data-count': state }, format.count(g[state]))),
        // With a per-group limit, a group running that many is passed over by accepts: said per row.
        perGroup === null ? null
          : h('td', null, full(g.running, perGroup) ? h('span', { class: 'badge limit', 'data-at-limit': 'true' }, 'at its limit') : '')));
      const more = page.next ? h('button', { type: 'button' }, 'More groups') : null;
      more?.addEventListener('click', () => { more.remove(); load(page.next); });
      if (!cursor) replace(body);
      body.append(rows.length === 0 && !cursor ? h('p', { class: 'muted' }, 'No group has pending or running jobs.')
        : table(['Group', 'Pending', 'Due', 'Running', ...(perGroup === null ? [] : [`Limit (${format.count(perGroup)} running)`])], rows), more ?? '');
    } catch (error) {
      if (!signal.aborted) replace(body, problem(error));
    }
  };
  load(undefined);
  return section;
}

/** Pending jobs read to find those being retried: one page of the listing, data and all. */
const RETRYING_READ = 500;

/**
 * Jobs whose last attempt failed and that wait for their retry: the type's failed count stays 0
 * while attempts remain (25 by default, with backoff up to an hour), so a type failing every
 * attempt would look healthy for hours. The API has no filter for them: they are found among the
 * first pending jobs, by attempt, and the page says when it did not read them all.
 */
async function retrying(name, signal) {
  const section = h('section', { id: 'retrying' }, h('h2', null, 'Failing, waiting for a retry'));
  try {
    const page = await get(`v1/jobs/${segment(name)}`, { state: 'pending', limit: RETRYING_READ }, signal);
    const jobs = page.jobs.filter((job) => job.attempt > 0)
      .sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '')).slice(0, FAILURES_SHOWN);
    const none = page.next ? `None of the first ${format.count(RETRYING_READ)} pending jobs has a failed attempt; the others were not read.`
      : 'No pending job has a failed attempt.';
    section.append(jobs.length === 0 ? h('p', { class: 'muted' }, none)
      : table(['Job', 'Failed attempts', 'Next try', 'Last error'], jobs.map((job) => h('tr', { 'data-job': job.id },
        h('td', null, h('a', { href: `#/job/${segment(job.type)}/${segment(job.id)}` }, job.id)),
        h('td', { class: 'num' }, `${format.count(job.attempt)} of ${format.count(job.maxAttempts)}`),
        h('td', { title: job.scheduledAt ?? '' }, format.relative(job.scheduledAt)),
        h('td', null, h('span', { class: 'error-text' }, job.lastError ?? '—'))))));
    if (page.next && jobs.length > 0) {
      section.append(h('p', { class: 'muted small' }, `Found among the first ${format.count(RETRYING_READ)} pending jobs of the type; the others were not read.`));
    }
  } catch (error) {
    if (!signal.aborted) section.append(problem(error));
  }
  return section;
}

/** The type's latest failures: its failed jobs, the latest finished first (order=recent). */
async function failures(name, signal) {
  const section = h('section', { id: 'failures' }, h('h2', null, 'Latest failed jobs'));
  try {
    const page = await get(`v1/jobs/${segment(name)}`, { order: 'recent', result: 'failed', limit: FAILURES_SHOWN }, signal);
    section.append(page.jobs.length === 0 ? h('p', { class: 'muted' }, 'No failed jobs.')
      : table(['Job', 'Finished', 'Attempts', 'Last error'], page.jobs.map((job) => h('tr', { 'data-job': job.id },
        h('td', null, h('a', { href: `#/job/${segment(job.type)}/${segment(job.id)}` }, job.id)),
        h('td', { title: job.finishedAt ?? '' }, format.relative(job.finishedAt)),
        h('td', { class: 'num' }, format.count(job.attempt)),
        h('td', null, h('span', { class: 'error-text' }, job.lastError ?? '—'))))));
    if (page.next) {
      section.append(h('p', null, h('a', { href: route('/jobs', { type: name, state: 'finished', result: 'failed', order: 'recent' }) },
        'All failed jobs, latest first')));
    }
  } catch (error) {
    if (!signal.aborted) section.append(problem(error));
  }
  return section;
}

/** How often the counts are read again while the page is on screen: as often as the overview's. */
const COUNTS_EVERY_MS = INTERVAL_MS;

function readAt(at) {
  return h('p', { class: 'muted small', id: 'counts-read' },
    `Counts read ${new Date(at).toISOString().slice(11, 19)} UTC, every ${COUNTS_EVERY_MS / 1000} s; `,
    'groups, retries and failures as the page was opened.');
}

/**
 * The counts, the limit note and when they were read, read again every few seconds until the page
 * leaves the screen (signal). A read that fails leaves the last counts up, under the problem; a
 * type paused or resumed meanwhile (by someone else) redraws the page, so that its button agrees.
 */
function liveCounts(type, signal, redraw) {
  const box = h('div', { id: 'live-counts' }, counts(type), limitNote(type), readAt(Date.now()));
  let shown = type;
  let timer;
  // Each read waits for the one before: a slow answer is never overtaken by an older one.
  const read = async () => {
    try {
      const asked = Date.now();
      const now = await get(typePath(type.type), undefined, signal);
      if (signal.aborted) return;
      if (Boolean(now.paused) !== Boolean(shown.paused)) {
        redraw();
        return;
      }
      shown = now;
      replace(box, counts(now), limitNote(now), readAt(asked));
    } catch (error) {
      if (signal.aborted) return;
      replace(box, counts(shown), limitNote(shown), problem(error));
    }
    timer = setTimeout(read, COUNTS_EVERY_MS);
  };
  timer = setTimeout(read, COUNTS_EVERY_MS);
  signal.addEventListener('abort', () => clearTimeout(timer));
  return box;
}

/**
 * outcome: the element an action reports in. Pause and resume redraw the page to show the type's
 * new state; they pass the same element on, so that the report they write in it stays on screen.
 * A deletion leaves only that report.
 */
export async function render(main, { params: [name], signal, outcome = h('div', { class: 'outcome' }) }) {
  const type = await get(typePath(name), undefined, signal);
  const refresh = async () => {
    if (signal.aborted) return;
    try {
      await render(main, { params: [name], signal, outcome });
    } catch (error) {
      // The action was done (its report stays); only showing the type's new state failed.
      if (!signal.aborted) outcome.append(problem(error));
    }
  };
  // After a deletion only the report stays, with the way back.
  const gone = () => replace(main, h('h1', null, 'Type ', h('code', null, name)), outcome,
    h('p', null, h('a', { href: '#/' }, 'Overview')));
  // Each redraw is of a page of its own: the counts of the one before stop with it.
  const page = new AbortController();
  signal.addEventListener('abort', () => page.abort());
  const redraw = () => { page.abort(); return refresh(); };
  const again = h('button', { type: 'button', id: 'refresh' }, 'Refresh');
  // The page is drawn anew: the keyboard goes back to the button it pressed, not to the top.
  again.addEventListener('click', () => redraw().then(() => main.querySelector('#refresh')?.focus()));
  const [retries, failed] = [await retrying(name, signal), await failures(name, signal)];
  // Left meanwhile (another page, or a redraw under way): this one is not drawn over it.
  if (page.signal.aborted) return;
  replace(main, header(type, redraw, gone, outcome), liveCounts(type, page.signal, redraw), settings(type),
    groups(name, type.concurrency?.perGroup ?? null, signal), retries, failed,
    h('p', null, again, ' ', h('span', { class: 'muted small' }, 'reads the groups, retries and failures again')));
}
