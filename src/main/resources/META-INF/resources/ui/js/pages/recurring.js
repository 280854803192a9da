// Recurring jobs and their next runs. The API has no filter for jobs with a repeat, so this page
// reads the listings of every type (up to SCAN_LIMIT jobs, and says so when it stops there) and
// asks POST /v1/repeat/preview for the runs after each one's next. A form previews any expression.
import { call, get } from '../api.js';
import { problem } from '../confirm.js';
import { h, replace, segment, table } from '../dom.js';
import * as format from '../format.js';

const SCAN_LIMIT = 10000;
const RUNS_SHOWN = 3;
/** Each preview is a call of its own: the jobs after these show their next run only. */
const PREVIEWS = 100;

async function preview(body, signal) {
  return (await call('POST', 'v1/repeat/preview', { body, signal })).json;
}

function previewForm(signal) {
  const output = h('div', { id: 'preview-result', 'aria-live': 'polite' });
  const form = h('form', { class: 'filters', id: 'preview' },
    h('label', { class: 'wide' }, 'Repeat', h('input', { name: 'repeat', required: true, placeholder: 'SCHEDULED, +1 HOUR · DAILY · CRON TZ=Europe/Berlin 0 9 * * MON-FRI', autocomplete: 'off' })),
    h('label', null, 'Runs', h('input', { name: 'count', type: 'number', min: 1, max: 100, value: 5 })),
    h('button', { type: 'submit' }, 'Preview'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    try {
      const answer = await preview({ repeat: String(data.get('repeat')), count: Number(data.get('count')) }, signal);
      replace(output, h('p', null, 'Normalized: ', h('code', { id: 'normalized' }, answer.normalized)),
        h('ol', { id: 'next-runs' }, answer.next.map((t) => h('li', null, h('code', null, t), ' ', h('span', { class: 'muted' }, format.relative(t))))));
    } catch (error) {
      replace(output, problem(error));
    }
  });
  return [form, output];
}

/** A time as the zone of a CRON TZ= repeat shows it ("Mon 09:00 Europe/Berlin"), or null. */
function local(time, repeat) {
  const zone = /^CRON TZ=(\S+)/.exec(repeat ?? '')?.[1];
  if (!zone) return null;
  try {
    const text = new Intl.DateTimeFormat('en-GB', { timeZone: zone, weekday: 'short', hour: '2-digit', minute: '2-digit' })
      .format(new Date(time));
    return `${text} ${zone}`;
  } catch {
    return null; // a zone this browser does not know: the UTC time stands alone
  }
}

function runTime(time, repeat) {
  const there = local(time, repeat);
  return [h('time', { title: time }, format.time(time)), there ? [' ', h('span', { class: 'muted', 'data-local': '' }, `(${there})`)] : null];
}

/** How the last run went, as far as the job says: its error, or when it last finished. */
function lastRun(job) {
  if (job.lastError) return h('span', { class: 'error-text', 'data-last-error': '' }, job.lastError);
  if (job.finishedAt) return h('span', { title: job.finishedAt }, `finished ${format.relative(job.finishedAt)}`);
  return h('span', { class: 'muted' }, 'not run yet');
}

/** Jobs with a repeat, type by type, until the listings end or SCAN_LIMIT jobs were read. */
async function scan(signal) {
  const { types } = await get('v1/types', undefined, signal);
  const paused = new Set(types.filter((type) => type.paused).map((type) => type.type));
  const found = [];
  let read = 0;
  for (const { type } of types) {
    let cursor;
    do {
      const page = await get(`v1/jobs/${segment(type)}`, { limit: 1000, cursor }, signal);
      read += page.jobs.length;
      found.push(...page.jobs.filter((job) => job.repeat !== null));
      cursor = page.next;
      if (read >= SCAN_LIMIT) return { found, complete: false, read, paused };
    } while (cursor);
  }
  return { found, complete: true, read, paused };
}

/**
 * A pending run's time and, previewed, the runs after it. A finished job's series has ended (it was
 * cancelled, or its repeat could not go on); a running one's and a retry's next runs depend on when
 * this run ends, so they are not guessed here.
 */
async function nextRuns(job, previewed, signal) {
  if (job.state === 'finished') {
    return h('span', { class: 'muted', 'data-ended': 'true' }, `ended (${job.result}): it runs again only if added again or resubmitted`);
  }
  if (job.state === 'running') return h('span', { class: 'muted' }, 'running; its next run is computed when this run ends');
  const at = job.scheduledAt;
  if (job.attempt > 0) {
    return h('span', { 'data-retry': 'true' }, `attempt ${job.attempt + 1} at `, runTime(at, job.repeat),
      h('span', { class: 'muted' }, '; the runs after it are computed when this run ends'));
  }
  if (!previewed) return h('ol', { class: 'runs' }, h('li', null, runTime(at, job.repeat)));
  try {
    const answer = await preview({ repeat: job.repeat, scheduledAt: at, startedAt: at, finishedAt: at, count: RUNS_SHOWN }, signal);
    // A STARTED or FINISHED series counts from when each run starts or ends, which is not known yet.
    const guess = /^(STARTED|FINISHED|HOURLY|DAILY|WEEKLY)/.test(job.repeat)
      ? h('p', { class: 'muted small' }, 'the runs after the next assume each run ends as it starts') : null;
    return [h('ol', { class: 'runs' }, [at, ...answer.next].map((t) => h('li', null, runTime(t, job.repeat)))), guess];
  } catch (error) {
    return problem(error);
  }
}

export async function render(main, { signal }) {
  const list = h('div', { id: 'recurring' }, h('p', { class: 'muted' }, 'Reading the listings…'));
  replace(main, h('h1', null, 'Recurring jobs'),
    h('h2', null, 'Preview a repeat expression'), previewForm(signal),
    h('h2', null, 'Jobs that repeat'), list);
  try {
    const { found, complete, read, paused } = await scan(signal);
    const rows = [];
    for (const [index, job] of found.entries()) {
      rows.push(h('tr', { 'data-job': job.id },
        h('td', null, h('a', { href: `#/type/${segment(job.type)}` }, job.type),
          paused.has(job.type) ? [' ', h('span', { class: 'badge paused', 'data-paused': 'true' }, 'paused')] : null),
        h('td', null, h('a', { href: `#/job/${segment(job.type)}/${segment(job.id)}` }, job.id)),
        h('td', null, h('code', null, job.repeat)),
        h('td', null, await nextRuns(job, index < PREVIEWS, signal)),
        h('td', null, lastRun(job))));
    }
    replace(list,
      complete ? null : h('p', { class: 'problem' }, `Stopped after reading ${read} jobs; recurring jobs further along the listings are not shown.`),
      rows.length === 0 ? h('p', { class: 'muted' }, 'No job repeats.')
        : table(['Type', 'Id', 'Repeat', 'Next runs (UTC)', 'Last run'], rows));
  } catch (error) {
    if (!signal.aborted) replace(list, problem(error));
  }
}
