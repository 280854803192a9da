// A job's live changes (GET /v1/jobs/{type}/{id}/events). EventSource cannot send an
// Authorization header, and the token must not go into the URL, so the stream is read with
// fetch() and parsed here as Server-Sent Events.
import { ApiError, failure, headers, jobPath, url } from './api.js';
import { token } from './auth.js';

/** Reads one SSE response, calling onEvent({event, data, id}) per event, until it ends. */
async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { event: 'message', data: [], id: null };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') { // a blank line dispatches the event gathered so far
        if (event.data.length > 0) onEvent({ ...event, data: event.data.join('\n') });
        event = { event: 'message', data: [], id: null };
        continue;
      }
      if (line.startsWith(':')) continue; // the service's keep-alive comments
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') event.data.push(text);
      else if (field === 'event') event.event = text;
      else if (field === 'id') event.id = text;
    }
  }
}

/**
 * Follows a job until signal aborts: onState(text) with each `state` event's raw JSON, onRemoved()
 * once it is deleted, onStatus('live' | 'reconnecting' | 'ended') as the connection changes. A
 * dropped stream is opened again (its first event is always the current state, so nothing is
 * missed), waiting a little longer after each failure in a row.
 */
export async function follow(type, id, { signal, onState, onRemoved, onStatus }) {
  let pause = 1000;
  while (!signal.aborted) {
    try {
      const bearer = token();
      const response = await fetch(url(jobPath(type, id, '/events')), {
        signal, cache: 'no-store', headers: headers({ Accept: 'text/event-stream' }, bearer),
      });
      if (response.status === 404) {
        onRemoved();
        onStatus('ended');
        return;
      }
      if (!response.ok) throw await failure(response, bearer);
      onStatus('live');
      let removed = false;
      await readEvents(response, (event) => {
        pause = 1000;
        if (event.event === 'state') onState(event.data);
        else if (event.event === 'removed') removed = true;
      });
      if (removed) {
        onRemoved();
        onStatus('ended');
        return;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
        onStatus('ended');
        return;
      }
    }
    onStatus('reconnecting');
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, pause);
      signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
    });
    pause = Math.min(pause * 2, 15000);
  }
}
