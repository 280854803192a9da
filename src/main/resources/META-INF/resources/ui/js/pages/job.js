// One job: every member, its data as stored (indented), its attempts, and its changes as they
// happen over the job's event stream. Cancel, retry and remove for tokens that may.
import { call, jobPath } from '../api.js';
import { actionButton } from '../confirm.js';
import { h, jobRoute, replace, route, table, waiting } from '../dom.js';
import * as format from '../format.js';
import { follow } from '../events.js';
import { indent, membersOf } from '../json.js';
import * as session from '../session.js';

/** Members with a section of their own; every other member is listed as a field. */
const OWN_SECTIONS = new Set(['data', 'history']);
const TIMES = new Set(['scheduledAt', 'createdAt', 'updatedAt', 'startedAt', 'finishedAt']);
/** Members that name other jobs ({type, id} each): shown as links to those jobs. */
const DEPENDENCIES = new Set(['after', 'waitingFor']);

const key = (dependency) => `${dependency.type}/${dependency.id}`;

/** The jobs of after or waitingFor, each a link; those still waited for are marked. */
function dependencies(job, list) {
  if (list.length === 0) return h('span', { class: 'muted' }, 'none');
  const awaited = new Set((job.waitingFor ?? []).map(key));
  return h('ul', { class: 'deps' }, list.map((dependency) => {
    const still = awaited.has(key(dependency));
    return h('li', { 'data-dep': key(dependency), 'data-awaited': String(still) },
      h('a', { href: jobRoute(dependency.type, dependency.id) }, h('code', null, key(dependency))),
      still ? [' ', h('span', { class: 'badge waiting' }, 'awaited')] : null);
  }));
}

function fieldValue(job, name, value) {
  if (value === null) return h('span', { class: 'muted' }, 'null');
  if (DEPENDENCIES.has(name) && Array.isArray(value)) return dependencies(job, value);
  if (TIMES.has(name)) return [h('code', null, value), ' ', h('span', { class: 'muted' }, format.relative(value))];
  // A stack trace keeps its lines, as in the history and the lists.
  if (name === 'lastError') return h('span', { class: 'error-text' }, String(value));
  if (typeof value === 'object') return h('code', null, JSON.stringify(value));
  return h('code', null, String(value));
}

function fields(job) {
  return h('dl', { class: 'fields', id: 'fields' }, Object.entries(job)
    .filter(([name]) => !OWN_SECTIONS.has(name))
    .map(([name, value]) => h('div', { 'data-field': name }, h('dt', null, name), h('dd', null, fieldValue(job, name, value)))));
}

/** Why a pending job is not handed out although its time may have come. */
function waitingNote(job) {
  if (!waiting(job)) return null;
  const n = job.waitingFor.length;
  const total = Math.max(job.after?.length ?? 0, n);
  const which = n === total ? (n === 1 ? 'the job' : `all ${n} jobs`) : `${n} of the ${total} jobs`;
  return h('p', { class: 'note', id: 'waiting' },
    `Waiting for ${which} it depends on (marked awaited below): not due, and no worker gets it, until `,
    n === 1 ? 'that one has' : 'they have', ' succeeded; then it is due at its scheduled time.');
}

function history(job) {
  if (!('history' in job)) return h('p', { class: 'muted' }, 'This version of the service keeps no history of attempts.');
  if (job.history.length === 0) return h('p', { class: 'muted' }, 'No attempt yet.');
  return table(['Attempt', 'Started', 'Ended', 'Outcome', 'Worker', 'Error'], job.history.map((attempt) => h('tr', null,
    h('td', { class: 'num' }, String(attempt.attempt)),
    h('td', null, format.time(attempt.startedAt)),
    h('td', null, format.time(attempt.endedAt)),
    h('td', null, h('span', { class: `badge ${attempt.outcome}` }, attempt.outcome)),
    h('td', null, attempt.worker ?? ''),
    h('td', null, h('span', { class: 'error-text' }, attempt.error ?? '')))), { id: 'history' });
}

function actions(job, outcome) {
  const { type, id } = job;
  const name = `${type}/${id}`;
  const buttons = [];
  if (job.state !== 'finished' && session.can('cancel', type)) {
    buttons.push(actionButton('Cancel', {
      confirmation: { title: 'Cancel this job?', message: `${name} will not run (a running one is stopped at its processor's next call).`, confirmLabel: 'Cancel job' },
      perform: () => call('POST', jobPath(type, id, '/cancel')),
      done: (answer) => `Cancel sent; the job is ${answer.json.state}${answer.json.result ? '/' + answer.json.result : ''}.`,
      outcome, danger: true,
    }));
  }
  // A finished job runs again as a fresh run: couch_jobs' resubmit, without a lease.
  if (job.state === 'finished' && session.can('retry', type)) {
    buttons.push(actionButton('Retry', {
      confirmation: { title: 'Run this job again?', message: `${name} becomes pending, due now, as a fresh run.`, confirmLabel: 'Retry' },
      perform: () => call('POST', jobPath(type, id, '/resubmit')),
      done: (answer) => `The job is ${answer.json.state} again.`,
      outcome,
    }));
  }
  if (session.can('remove', type)) {
    buttons.push(actionButton('Remove', {
      confirmation: { title: 'Remove this job?', message: `Every trace of ${name} is deleted; a running processor is told to stop.`, confirmLabel: 'Remove' },
      perform: () => call('DELETE', jobPath(type, id)),
      done: () => 'The job was removed.',
      outcome, danger: true,
    }));
  }
  return buttons;
}

export async function render(main, { params: [type, id], signal }) {
  const title = h('h1', null, 'Job ', h('code', null, id));
  const live = h('span', { class: 'live', id: 'live', role: 'status' }, 'connecting…');
  const buttons = h('div', { class: 'actions', id: 'actions' });
  const outcome = h('div', { class: 'outcome' });
  const body = h('div', { id: 'job' });
  replace(main, title,
    h('p', null, 'Type ', h('a', { href: `#/type/${encodeURIComponent(type)}` }, type), ' · ',
      h('a', { href: route('/jobs', { type }) }, 'its jobs'), ' · ', live),
    buttons, outcome, body);

  let lastState = null;
  const draw = (text) => {
    const job = JSON.parse(text);
    const data = membersOf(text).get('data');
    replace(body, waitingNote(job), fields(job),
      h('section', null, h('h2', null, 'Data'), h('pre', { class: 'data', id: 'data' }, data === undefined ? '' : indent(data))),
      h('section', null, h('h2', null, 'History'), history(job)));
    // Buttons follow the state (cancel only while not finished, retry once finished), but are
    // not redrawn on every heartbeat, so that focus stays where the keyboard left it.
    if (job.state !== lastState) {
      lastState = job.state;
      const hadFocus = buttons.contains(document.activeElement);
      replace(buttons, actions(job, outcome));
      // The keyboard was on a button the change took away (Cancel, once the job is cancelled): it
      // goes on from the first of the new ones, not from the top of the page.
      if (hadFocus) (buttons.querySelector('button') ?? outcome.querySelector('p'))?.focus();
    }
  };

  // The stream's first event is the job as it is; the page is drawn from it. A job that does not
  // exist is told apart by a plain GET, whose problem the router shows.
  const first = await call('GET', jobPath(type, id), { signal });
  draw(first.text);
  follow(type, id, {
    signal,
    onState: draw,
    onRemoved: () => {
      const hadFocus = buttons.contains(document.activeElement);
      replace(buttons);
      // Said once: a report of this page's own action (the removal, a cancel) is overtaken by it.
      if (outcome.querySelector('.ok')) replace(outcome);
      const removed = h('p', { class: 'problem', role: 'alert', id: 'removed', tabindex: '-1' }, 'This job was removed.');
      replace(body, removed);
      if (hadFocus) removed.focus();
    },
    onStatus: (status) => {
      live.textContent = { live: 'live', reconnecting: 'reconnecting…', ended: 'not following' }[status];
      live.dataset.status = status;
    },
  });
}
