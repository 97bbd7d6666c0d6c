'use strict';
// Webhook deliveries as the operator would send them: signed with the app's Webhook Secret over
// `TIMESTAMP.RAW_BODY`, retried with exponential backoff a bounded number of times, every attempt
// recorded. The same delivery id is kept across retries so receivers can drop duplicates.
const crypto = require('node:crypto');
const { request } = require('undici');
const { webhookSignature } = require('./auth');
const { formatApiDate } = require('./time');
const { shaped } = require('./style');

const MAX_KEPT_DELIVERIES = 10_000;

class WebhookSender {
  /** `getStyle()` is the sandbox's answer style: events are written as its API writes (sandbox/style.js). */
  constructor({ headerPrefix, maxAttempts = 5, retryBaseMs = 500, timeoutMs = 10000, concurrency = Infinity, log = () => {}, getStyle }) {
    this.headerPrefix = headerPrefix;
    // Attempts in flight at once, over every URL: the spec does not say; unbounded sends a whole
    // burst at once, a number makes the others wait their turn (as senders with a worker pool do).
    this.concurrency = concurrency;
    this.inFlight = 0;
    this.turns = []; // resolves of attempts waiting for a free slot, oldest first
    this.getStyle = getStyle;
    this.maxAttempts = maxAttempts;
    this.retryBaseMs = retryBaseMs;
    this.timeoutMs = timeoutMs;
    this.log = log;
    this.attempts = [];
    this.deliveries = new Map(); // delivery id -> what was sent, for the operator's resend
    this.pending = new Set();
    this.waits = new Map(); // backoff timer -> its resolve, so close() can release them
    this.closed = false;
  }

  /**
   * Queues one event for one app. `tamper` ('body' | 'signature' | 'timestamp') sends one
   * deliberately broken attempt without retries, to test receivers' rejections; `retried: false`
   * sends one attempt whatever the answer. `done` resolves with the last attempt's record.
   */
  send(app, event, data, { test = false, tamper, url, retried = true } = {}) {
    const eventId = `evt_${crypto.randomBytes(12).toString('hex')}`;
    const delivery = {
      deliveryId: `whd_${crypto.randomBytes(12).toString('hex')}`,
      eventId,
      event,
      clientId: app.clientId,
      url: url ?? app.webhookUrl,
      encoding: app.webhookSignatureEncoding,
      secret: app.webhookSecret,
      tamper,
      retried: retried && !tamper,
      body: this.eventBody(eventId, event, test, data),
    };
    if (!tamper) {
      this.deliveries.set(delivery.deliveryId, delivery);
      // Bounded, oldest first: a long-running demo must not grow without end.
      if (this.deliveries.size > MAX_KEPT_DELIVERIES) this.deliveries.delete(this.deliveries.keys().next().value);
    }
    return this.start(delivery);
  }

  /** The event's bytes in the answer style in force when it is sent (a resend sends the same bytes). */
  eventBody(id, event, test, data) {
    const style = this.getStyle();
    const body = shaped({ id, event, created_at: formatApiDate(Date.now(), style.timeZone), test, data }, style);
    return Buffer.from(JSON.stringify(body), 'utf8');
  }

  /**
   * The operator's "resend": the same delivery (same id, same body), signed afresh, to `url` or to
   * where it went first; retried like any delivery. Null when no such delivery was sent.
   */
  resend(deliveryId, url) {
    const delivery = this.deliveries.get(deliveryId);
    if (!delivery) return null;
    return this.start({ ...delivery, url: url ?? delivery.url, resend: true, retried: true });
  }

  start(delivery) {
    const done = this.attempt(delivery, 1);
    this.pending.add(done);
    done.finally(() => this.pending.delete(done));
    return { deliveryId: delivery.deliveryId, eventId: delivery.eventId, done };
  }

  /** Waits for a free slot (see `concurrency`); `release()` hands it to the next waiting attempt. */
  async slot() {
    if (this.inFlight < this.concurrency) {
      this.inFlight++;
      return;
    }
    await new Promise((resolve) => this.turns.push(resolve));
  }

  release() {
    const next = this.turns.shift();
    if (next) next();
    else this.inFlight--;
  }

  async attempt(delivery, attemptNo) {
    if (this.closed) return;
    await this.slot();
    let record;
    try {
      record = await this.post(delivery, attemptNo);
    } finally {
      this.release();
    }
    const ok = record.statusCode !== null && record.statusCode >= 200 && record.statusCode < 300;
    if (ok || !delivery.retried || attemptNo >= this.maxAttempts || this.closed) return record;
    const delay = this.retryBaseMs * 2 ** (attemptNo - 1);
    await new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(timer);
        resolve();
      }, delay);
      this.waits.set(timer, resolve);
    });
    return this.attempt(delivery, attemptNo + 1);
  }

  /** One attempt, signed when it is sent (after waiting for its slot), recorded in `attempts`. */
  async post(delivery, attemptNo) {
    const p = this.headerPrefix;
    const timestamp = String(Math.floor(Date.now() / 1000));
    let body = delivery.body;
    let signature = webhookSignature(delivery.secret, timestamp, body, delivery.encoding);
    let sentTimestamp = timestamp;
    if (delivery.tamper === 'body') body = Buffer.from(body.toString('utf8').replace('"test":', '"test" :'), 'utf8');
    if (delivery.tamper === 'signature') signature = webhookSignature('wrong-secret', timestamp, body, delivery.encoding);
    if (delivery.tamper === 'timestamp') sentTimestamp = String(Number(timestamp) - 3600);
    const record = {
      deliveryId: delivery.deliveryId,
      eventId: delivery.eventId,
      event: delivery.event,
      clientId: delivery.clientId,
      url: delivery.url,
      attempt: attemptNo,
      tamper: delivery.tamper ?? null,
      resend: delivery.resend ?? false,
      at: new Date().toISOString(),
      statusCode: null,
      error: null,
      durationMs: null,
      responseBody: null,
    };
    const started = performance.now();
    try {
      const res = await request(delivery.url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'marketplace-partner-sandbox-webhooks/1',
          [`${p}WEBHOOK-ID`]: delivery.deliveryId,
          [`${p}WEBHOOK-TIMESTAMP`]: sentTimestamp,
          [`${p}WEBHOOK-SIGNATURE`]: signature,
          [`${p}WEBHOOK-EVENT`]: delivery.event,
        },
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      record.statusCode = res.statusCode;
      record.responseBody = (await res.body.text()).slice(0, 500);
    } catch (error) {
      record.error = error.code ?? error.message;
    }
    record.durationMs = Math.round(performance.now() - started);
    this.attempts.push(record);
    this.log(`webhook ${delivery.event} ${delivery.deliveryId} attempt ${attemptNo}: ${record.statusCode ?? record.error}`);
    return record;
  }

  list(filter = {}) {
    return this.attempts.filter(
      (a) =>
        (!filter.clientId || a.clientId === filter.clientId) &&
        (!filter.event || a.event === filter.event) &&
        (!filter.deliveryId || a.deliveryId === filter.deliveryId),
    );
  }

  /** Forgets recorded attempts and sent deliveries (a reset); deliveries still under way keep going. */
  clearAttempts() {
    this.attempts = [];
    this.deliveries.clear();
  }

  /** Resolves when every queued delivery has finished its last attempt. */
  async idle() {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  close() {
    this.closed = true;
    for (const [timer, resolve] of this.waits) {
      clearTimeout(timer);
      resolve();
    }
    this.waits.clear();
  }
}

module.exports = { WebhookSender };
