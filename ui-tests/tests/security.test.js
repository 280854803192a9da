import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN_TOKEN, api, BASE, launch, ok, openPage, uniqueType, VIEWER_TOKEN } from './harness.js';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the dashboard is served with a Content-Security-Policy that allows no inline script or style', async () => {
  for (const path of ['/ui/', '/ui/app.js', '/ui/style.css']) {
    const response = await fetch(BASE + path);
    assert.equal(response.status, 200, path);
    const policy = response.headers.get('content-security-policy');
    assert.ok(policy, `${path} has a Content-Security-Policy`);
    const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    assert.deepEqual(directives['script-src'], ["'self'"], path);
    assert.deepEqual(directives['style-src'], ["'self'"], path);
    assert.deepEqual(directives['default-src'], ["'none'"], path);
  }
  const root = await fetch(`${BASE}/`, { redirect: 'manual' });
  assert.equal(root.status, 302);
  assert.equal(new URL(root.headers.get('location'), `${BASE}/`).pathname, '/ui/');
});

test('the page itself runs under that policy: an inline script injected into it does not run', async () => {
  const ui = await openPage(browser);
  await ui.goto('#/');
  await ui.page.locator('h1').filter({ hasText: 'Overview' }).waitFor();
  const violation = ui.page.waitForEvent('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()));
  await ui.page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inline = true';
    document.body.append(script);
  });
  await violation;
  assert.equal(await ui.page.evaluate(() => window.__inline ?? null), null);
  // The violation was this test's own doing; nothing else may have been logged.
  ui.problems.splice(0, ui.problems.length, ...ui.problems.filter((p) => !/Content Security Policy/i.test(p)));
  ui.check();
  await ui.close();
});

test('the token goes in the Authorization header of every call, never in a URL', async (t) => {
  // A service started with tokens needs a real one; one without them serves any (and ignores it).
  const token = ADMIN_TOKEN ?? 'made-up-token-value';
  const ui = await openPage(browser, { token: null });
  await ui.goto('#/signin');
  await ui.page.locator('#token').fill(token);
  const requests = []; // from the sign-in on: the calls before it rightly carry no token
  ui.page.on('request', (request) => requests.push(request));
  await ui.page.locator('#signin').getByRole('button', { name: 'Sign in' }).click();
  await ui.page.waitForFunction(() => location.hash === '#/' || document.querySelector('#signin ~ .outcome .problem'));
  if (await ui.page.locator('.outcome .problem').count() > 0) {
    t.skip(`the service refused the token: ${await ui.page.locator('.outcome .problem').textContent()}`);
    await ui.close();
    return;
  }
  const type = uniqueType('token');
  const job = await ok('POST', `/v1/jobs/${type}`, {});
  await ui.goto(`#/job/${type}/${job.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  const calls = requests.filter((r) => new URL(r.url()).pathname.startsWith('/v1/'));
  assert.ok(calls.some((r) => r.url().endsWith('/v1/me')), 'signing in asks who the token is');
  assert.ok(calls.some((r) => r.url().endsWith('/events')), 'the event stream is among the calls');
  for (const request of calls) {
    assert.ok(!request.url().includes(token), request.url());
    assert.equal(await request.headerValue('authorization'), `Bearer ${token}`, request.url());
  }
  assert.equal(await ui.page.evaluate((value) => location.href.includes(value), token), false);
  ui.check();
  await ui.close();
});

test('the sign-in page says what the service answered: a token\'s name, or service without a token', async () => {
  // A service without tokens ignores one sent, and names every caller "anonymous".
  const { name } = await ok('GET', '/v1/me');
  const signedIn = await openPage(browser, { token: ADMIN_TOKEN ?? 'made-up-token-value' });
  await signedIn.goto('#/signin');
  await signedIn.page.locator('#signin').waitFor();
  const said = await signedIn.page.locator('main').textContent();
  assert.match(said, new RegExp(`the service names this tab's token ${name}`));
  assert.doesNotMatch(said, /without a token/);
  signedIn.check();
  await signedIn.close();

  const none = await openPage(browser, { token: null });
  await none.goto('#/signin');
  await none.page.locator('#signin').waitFor();
  if (ADMIN_TOKEN) {
    assert.match(await none.page.locator('main').textContent(), /asks for a token before it shows anything/);
  } else {
    assert.match(await none.page.locator('main').textContent(), /answers without a token here, as anonymous/);
  }
  none.check();
  await none.close();
});

test('a viewer token sees jobs and types but no action button', async (t) => {
  if (!VIEWER_TOKEN) {
    t.skip('JOBFOUNDRY_VIEWER_TOKEN is not set: this run of the service has no tokens (ui-tests/test.sh runs the suite again with them)');
    return;
  }
  const type = uniqueType('viewer');
  const job = await ok('POST', `/v1/jobs/${type}`, {});
  const ui = await openPage(browser, { token: VIEWER_TOKEN });
  await ui.goto(`#/job/${type}/${job.id}`);
  await ui.page.locator('#live[data-status="live"]').waitFor();
  assert.equal(await ui.page.locator('#actions button').count(), 0);
  await ui.goto(`#/type/${type}`);
  await ui.page.locator('#failures').waitFor();
  assert.equal(await ui.page.getByRole('button', { name: /Pause|Resume/ }).count(), 0);
  assert.equal(await ui.page.locator('header nav a[href="#/bulk"]').isVisible(), false, 'no menu offers bulk actions');
  await ui.goto('#/bulk');
  await ui.page.locator('#bulk-not-allowed').waitFor();
  ui.check();
  await ui.close();
});

test('a token with a character no header can carry is refused on the sign-in page, not sent', async () => {
  const ui = await openPage(browser, { token: null });
  await ui.goto('#/signin');
  await ui.page.locator('#signin').waitFor();
  const requests = [];
  ui.page.on('request', (request) => requests.push(request));
  await ui.page.locator('#token').fill('tok\u20acn with space');
  await ui.page.locator('#signin').getByRole('button', { name: 'Sign in' }).click();
  await ui.page.locator('#signin ~ .outcome .problem').filter({ hasText: 'visible ASCII characters only' }).waitFor();
  assert.equal(await ui.page.evaluate(() => sessionStorage.getItem('jobfoundry.token')), null, 'nothing kept');
  for (const request of requests) {
    assert.equal(await request.headerValue('authorization'), null, `${request.url()}: no token sent`);
  }
  assert.equal(await ui.page.locator('h1').textContent(), 'Sign in', 'not taken for an unreachable service');
  ui.check();
  await ui.close();
});

test('a link naming "." or ".." as a type or id shows nothing and offers no action', async () => {
  const ui = await openPage(browser);
  for (const hash of ['#/job/some-type/..', '#/job/some-type/.', '#/job/./x', '#/job/some-type/%2E%2E', '#/type/.']) {
    const calls = [];
    const listen = (request) => calls.push(request.url());
    ui.page.on('request', listen);
    await ui.goto(hash);
    await ui.page.locator('main').filter({ hasText: 'No type or job is named "." or ".."' }).waitFor();
    ui.page.off('request', listen);
    assert.equal(await ui.page.locator('main button').count(), 0, hash);
    assert.deepEqual(calls.filter((url) => /\/v1\/(jobs|types)\//.test(url)), [], `${hash}: no type or job asked for`);
  }
  ui.check();
  await ui.close();
});
