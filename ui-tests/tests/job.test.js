import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_TOKEN, BASE, api, confirmAction, jobPath, launch, ok, openPage, runOne, uniqueType } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

function field(page, name) {
  return page.locator(`#fields [data-field="${name}"] dd`);
}

test('a job page shows every field, its data as stored and indented, and its history', async () => {
  const type = uniqueType('job');
  // Numbers keep the text they were written with: the page must not respell them.
  const raw = '{"data":{"price":1.50,"huge":1e400,"items":[1,{"k":"v"}],"empty":{}},"group":"tenant-7","maxAttempts":2}';
  const created = await fetch(`${process.env.JOBFOUNDRY_URL}/v1/jobs/${type}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(ADMIN_TOKEN ? { Authorization: `Bearer ${ADMIN_TOKEN}` } : {}) },
    body: raw,
  }).then((r) => r.json());
  await runOne(type, 'failed', 'smtp 451');

  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/${encodeURIComponent(created.id)}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  const job = await ok('GET', jobPath(type, created.id));
  for (const name of Object.keys(job).filter((n) => n !== 'data' && n !== 'history')) {
    assert.equal(await ui.page.locator(`#fields [data-field="${name}"]`).count(), 1, `field ${name} shown`);
  }
  assert.equal(await field(ui.page, 'group').textContent(), 'tenant-7');
  assert.equal(await field(ui.page, 'lastError').textContent(), 'smtp 451');
  assert.equal(await ui.page.locator('#data').textContent(),
    '{\n  "price": 1.50,\n  "huge": 1e400,\n  "items": [\n    1,\n    {\n      "k": "v"\n    }\n  ],\n  "empty": {}\n}');
  if ('history' in job) {
    await ui.page.locator('#history tbody tr').first().waitFor();
    assert.equal(await ui.page.locator('#history tbody tr').count(), job.history.length);
    assert.match(await ui.page.locator('#history').textContent(), /smtp 451/);
  } else {
    // Until the service serves history (main's operating-the-queue work), the page says so.
    assert.match(await ui.page.locator('#job').textContent(), /keeps no history/);
  }
  ui.check();
  await ui.close();
});

test('a job whose data, id and error hold markup runs nothing and shows the text as it is', async () => {
  const type = uniqueType('xss');
  const id = '"><img src=x onerror=alert(1)>';
  const payloads = {
    script: '<script>window.__xss = "script"; alert("script")</script>',
    attribute: '"><img src=x onerror="window.__xss=\'img\'; alert(\'img\')">',
    svg: '<svg onload=alert("svg")></svg>',
  };
  await ok('PUT', jobPath(type, id), { data: payloads, group: '<b onmouseover=alert(2)>g</b>', maxAttempts: 1 });
  await runOne(type, 'failed', '<img src=x onerror=alert("error")>');

  const ui = await openPage(browser);
  const injected = () => ui.page.evaluate(() => ({
    flag: window.__xss ?? null,
    elements: document.querySelectorAll('main img, main script, main svg:not(.chart), main b').length,
  }));
  for (const hash of [`#/job/${type}/${encodeURIComponent(id)}`, `#/jobs?type=${type}`, `#/type/${type}`]) {
    await ui.goto(hash);
    await ui.page.locator(hash.startsWith('#/job/') ? '#data' : (hash.startsWith('#/jobs') ? '#job-list' : '#failures')).first().waitFor();
    await ui.page.getByText(id, { exact: false }).first().waitFor();
    assert.deepEqual(await injected(), { flag: null, elements: 0 }, `nothing injected on ${hash}`);
  }
  await ui.goto(`#/job/${type}/${encodeURIComponent(id)}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  const data = await ui.page.locator('#data').textContent();
  for (const payload of Object.values(payloads)) assert.ok(data.includes(JSON.stringify(payload)), `data shows ${payload} literally`);
  assert.equal(await field(ui.page, 'id').textContent(), id);
  assert.equal(await field(ui.page, 'group').textContent(), '<b onmouseover=alert(2)>g</b>');
  assert.deepEqual(await injected(), { flag: null, elements: 0 });
  ui.check(); // no alert() dialog, no console error
  await ui.close();
});

test('the open job page follows the job as a worker takes and finishes it', async () => {
  const type = uniqueType('live');
  const created = await ok('POST', `/v1/jobs/${type}`, { data: { step: 0 } });
  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/${created.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  assert.equal(await field(ui.page, 'state').textContent(), 'pending');

  const [running] = await ok('POST', '/v1/accept', { types: [type], max: 1, wait: 5000, worker: 'host-ui' });
  await field(ui.page, 'state').filter({ hasText: /^running$/ }).waitFor();
  assert.equal(await field(ui.page, 'worker').textContent(), 'host-ui');
  await ok('POST', `${jobPath(type, created.id)}/finish`, { lease: running.lease, outcome: 'succeeded', data: { step: 1 } });
  await field(ui.page, 'result').filter({ hasText: /^succeeded$/ }).waitFor();
  assert.equal(await field(ui.page, 'state').textContent(), 'finished');
  assert.equal(await ui.page.locator('#data').textContent(), '{\n  "step": 1\n}');
  // A finished job offers a retry, not a cancel.
  await ui.page.getByRole('button', { name: 'Retry', exact: true }).waitFor();
  assert.equal(await ui.page.getByRole('button', { name: 'Cancel', exact: true }).count(), 0);
  ui.check();
  await ui.close();
});

test('cancel, retry and remove ask first, act, and the page follows', async () => {
  const type = uniqueType('actions');
  const created = await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/${created.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();

  // Declining the confirmation changes nothing.
  await ui.page.getByRole('button', { name: 'Cancel', exact: true }).click();
  await ui.page.locator('dialog#confirm').getByRole('button', { name: 'Keep it' }).click();
  assert.equal((await ok('GET', jobPath(type, created.id))).state, 'pending');

  await confirmAction(ui.page, 'Cancel', 'Cancel job');
  await field(ui.page, 'result').filter({ hasText: /^cancelled$/ }).waitFor();
  assert.equal((await ok('GET', jobPath(type, created.id))).result, 'cancelled');

  await confirmAction(ui.page, 'Retry', 'Retry');
  await field(ui.page, 'state').filter({ hasText: /^pending$/ }).waitFor();
  assert.equal((await ok('GET', jobPath(type, created.id))).state, 'pending');

  await confirmAction(ui.page, 'Remove', 'Remove');
  await ui.page.locator('#removed').waitFor();
  assert.equal((await api('GET', jobPath(type, created.id))).status, 404);
  ui.check();
  await ui.close();
});

test('a refused action shows the problem detail the service answered', async () => {
  const type = uniqueType('refused');
  const created = await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser);
  // The page must not learn of the removal from its event stream, so that it still offers the
  // buttons a moment later: the stream is cut off here (the page then tries to reconnect).
  await ui.page.route('**/events', (route) => route.abort());
  await ui.goto(`#/job/${type}/${created.id}`);
  await ui.page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
  await ok('DELETE', jobPath(type, created.id));
  const refusal = await api('POST', `${jobPath(type, created.id)}/cancel`);
  assert.equal(refusal.status, 404);

  await confirmAction(ui.page, 'Cancel', 'Cancel job');
  const shown = ui.page.locator('.outcome .problem[role="alert"]');
  await shown.waitFor();
  assert.ok((await shown.textContent()).includes(refusal.body.detail), `shows "${refusal.body.detail}"`);
  assert.match(await shown.textContent(), /^404 /);
  // The aborted stream requests are the test's doing, not the page's.
  ui.problems.splice(0, ui.problems.length, ...ui.problems.filter((p) => !p.includes('net::ERR_FAILED')));
  ui.check();
  await ui.close();
});

test('a job link with broken percent-encoding says the link is malformed, not that the service is down', async () => {
  const ui = await openPage(browser);
  await ui.goto('#/job/email/%E0%A4%A');
  await ui.page.locator('h1').filter({ hasText: 'Not found' }).waitFor();
  const text = await ui.page.locator('main').textContent();
  assert.match(text, /malformed/);
  assert.doesNotMatch(text, /could not be reached/);
  ui.check();
  await ui.close();
});

/** Polls the job until check(job) holds: the service resolves dependencies in the background. */
/**
 * The job's state from its event stream (GET …/events: the current state, then each change) once
 * check() holds: waits on the service's own events, not a poll.
 */
async function untilEvent(type, id, check) {
  const headers = { Accept: 'text/event-stream' };
  if (ADMIN_TOKEN) headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 10_000);
  let seen = null;
  try {
    const response = await fetch(`${BASE}${jobPath(type, id)}/events`, { headers, signal: abort.signal });
    assert.equal(response.status, 200);
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const lines = buffered.slice(0, end).split('\n');
        buffered = buffered.slice(end + 2);
        const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (lines.some((l) => /^event:\s*state$/.test(l)) && data) {
          seen = JSON.parse(data);
          if (check(seen)) return seen;
        }
      }
    }
  } catch (e) {
    if (e.name !== 'AbortError') throw e;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  assert.fail(`${type}/${id} never reached the expected state: ${JSON.stringify(seen)}`);
}

test('a dependent job links to the jobs it waits for, marks the awaited ones, and says it is not due', async () => {
  const first = uniqueType('dep-a');
  const second = uniqueType('dep-b');
  const type = uniqueType('dependent');
  await ok('PUT', jobPath(first, 'extract-orders'), {});
  await ok('PUT', jobPath(second, 'extract-customers'), {});
  await ok('PUT', jobPath(type, 'load'), { after: [{ type: first, id: 'extract-orders' }, { type: second, id: 'extract-customers' }] });
  await runOne(first, 'succeeded');
  await untilEvent(type, 'load', (job) => job.waitingFor.length === 1);

  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/load`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  const deps = ui.page.locator('#fields [data-field="after"] li');
  assert.equal(await deps.count(), 2);
  const done = ui.page.locator(`#fields [data-field="after"] li[data-dep="${first}/extract-orders"]`);
  const awaited = ui.page.locator(`#fields [data-field="after"] li[data-dep="${second}/extract-customers"]`);
  assert.equal(await done.getAttribute('data-awaited'), 'false');
  assert.doesNotMatch(await done.textContent(), /awaited/);
  assert.equal(await awaited.getAttribute('data-awaited'), 'true');
  assert.match(await awaited.textContent(), /awaited/);
  assert.equal(await ui.page.locator('#fields [data-field="waitingFor"] li').count(), 1);
  assert.equal(await ui.page.locator('#fields [data-field="waitingFor"] a').textContent(), `${second}/extract-customers`);
  assert.match(await ui.page.locator('#waiting').textContent(), /Waiting for 1 of the 2 jobs it depends on.*not due/);

  // The link leads to that job's page, and back.
  await awaited.getByRole('link').click();
  await field(ui.page, 'id').filter({ hasText: /^extract-customers$/ }).waitFor();
  assert.equal(await field(ui.page, 'type').textContent(), second);
  assert.equal(await ui.page.locator('#waiting').count(), 0, 'a job without dependencies is not waiting');
  await ui.page.goBack();
  await ui.page.locator('#waiting').waitFor();

  // Once the last one succeeds, the open page follows: nothing awaited, no waiting note, due.
  await ui.page.locator('#live[data-status="live"]').waitFor();
  await runOne(second, 'succeeded');
  await ui.page.locator('#waiting').waitFor({ state: 'detached' });
  assert.equal(await ui.page.locator('#fields [data-awaited="true"]').count(), 0);
  assert.equal(await ui.page.locator('#fields [data-field="waitingFor"] dd').textContent(), 'none');
  assert.equal(await field(ui.page, 'state').textContent(), 'pending');
  assert.equal((await ok('GET', `/v1/types/${type}`)).counts.due, 1);
  ui.check();
  await ui.close();
});

test('a job cancelled because a job it waited for failed names that job', async () => {
  const first = uniqueType('dep-fail');
  const type = uniqueType('dep-cancelled');
  await ok('PUT', `/v1/types/${first}`, { maxAttempts: 1 });
  await ok('PUT', jobPath(first, 'upstream'), {});
  await ok('PUT', jobPath(type, 'downstream'), { after: [{ type: first, id: 'upstream' }] });
  await runOne(first, 'failed', 'boom');
  await untilEvent(type, 'downstream', (job) => job.state === 'finished');

  const ui = await openPage(browser);
  await ui.goto(`#/job/${type}/downstream`);
  await field(ui.page, 'result').filter({ hasText: /^cancelled$/ }).waitFor();
  assert.match(await field(ui.page, 'lastError').textContent(), /upstream/);
  assert.equal(await ui.page.locator('#waiting').count(), 0, 'a finished job is not waiting');
  assert.equal(await ui.page.locator(`#fields [data-field="after"] a[href="#/job/${first}/upstream"]`).count(), 1);
  ui.check();
  await ui.close();
});
