// Throughput and the last hour's chart come from the counts of GET /v1/types, polled every few
// seconds from the moment the dashboard is opened (or signed in or out: app.js stops the sampler
// and starts it afresh): the API keeps no history of its own. A type's
// throughput is how much its finished counts (succeeded + failed + cancelled) grew between two
// polls. Runs that do not end finished (a recurring job's run, a retried attempt) and jobs that
// finish and are removed between two polls are not seen; a count that drops (retention, a
// removal, a finished job run again) adds nothing. docs/dashboard.md says the same.
import { get } from './api.js';

export const INTERVAL_MS = 3000;
const HOUR_MS = 3600 * 1000;
const MINUTE_MS = 60 * 1000;

const samples = []; // {at, types: Map name → type object}, oldest first, one hour's worth
const listeners = new Set();
let lastError = null;
let timer = null;
let generation = 0; // raised by stop(): a poll answered after it belongs to the identity before

function finished(type) {
  const c = type?.counts ?? {};
  return (c.succeeded ?? 0) + (c.failed ?? 0) + (c.cancelled ?? 0);
}

async function poll() {
  const mine = generation;
  try {
    const { types } = await get('v1/types');
    if (mine !== generation) return;
    const at = Date.now();
    samples.push({ at, types: new Map(types.map((type) => [type.type, type])) });
    while (samples.length > 2 && samples[1].at < at - HOUR_MS) samples.shift();
    lastError = null;
  } catch (error) {
    if (mine !== generation) return;
    lastError = error;
  }
  listeners.forEach((listener) => listener());
}

/** Starts polling (once); polls again at once, so that a page opened now shows fresh counts. */
export function start() {
  if (timer === null) timer = setInterval(poll, INTERVAL_MS);
  return poll();
}

/**
 * Stops polling and forgets every sample: counts seen with one identity must not show (as totals,
 * throughput or bars) under another, nor be polled for while there is none.
 */
export function stop() {
  clearInterval(timer);
  timer = null;
  samples.length = 0;
  lastError = null;
  generation++;
}

export function subscribe(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function latest() {
  return samples.at(-1) ?? null;
}

export function error() {
  return lastError;
}

/** Jobs finished between two samples, for one type or (name undefined) all. */
function growth(before, after, name) {
  const names = name === undefined ? [...after.types.keys()] : [name];
  let total = 0;
  for (const n of names) {
    total += Math.max(0, finished(after.types.get(n)) - finished(before.types.get(n)));
  }
  return total;
}

/**
 * Jobs finished in the last minute, null before two samples. In the page's first minute it is what
 * finished since it was opened: a count, never scaled up from a few seconds (40 jobs finished in
 * the first 6 s are 40, not 400 a minute).
 */
export function perMinute(name) {
  if (samples.length < 2) return null;
  const last = samples.at(-1);
  let first = samples.length - 2;
  while (first > 0 && samples[first - 1].at >= last.at - MINUTE_MS) first--;
  let total = 0;
  for (let i = first + 1; i < samples.length; i++) {
    // Polls a minute or more apart (the service was away, the computer slept): what finished
    // between them finished at some time in that gap, most of it before the last minute.
    if (samples[i].at - samples[i - 1].at >= MINUTE_MS) continue;
    total += growth(samples[i - 1], samples[i], name);
  }
  return total;
}

/**
 * Jobs finished in each of the last 60 minutes, oldest first; null for minutes before the first
 * sample, which were not watched.
 */
export function lastHour(name, now = Date.now()) {
  const buckets = new Array(60).fill(null);
  if (samples.length === 0) return buckets;
  const startOf = (index) => now - (60 - index) * MINUTE_MS;
  for (let i = 0; i < 60; i++) if (startOf(i + 1) > samples[0].at) buckets[i] = 0;
  for (let i = 1; i < samples.length; i++) {
    const index = Math.min(59, Math.floor((samples[i].at - (now - HOUR_MS)) / MINUTE_MS));
    if (index >= 0 && index < 60) buckets[index] += growth(samples[i - 1], samples[i], name);
  }
  return buckets;
}
