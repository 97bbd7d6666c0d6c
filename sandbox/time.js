'use strict';
// The API writes datetimes as `YYYY-MM-DD HH:MM:SS`. The sandbox stores instants (whole-second ms)
// and writes them in its time zone: UTC by default, or any IANA zone (the `timeZone` style switch,
// sandbox/style.js), through Intl.DateTimeFormat, so daylight saving time is the zone database's.

const DAY_MS = 24 * 3600 * 1000;

/** Now, cut to whole seconds: stored times must be exactly what the API's datetime form can say. */
function nowWholeSecondsMs() {
  return Math.floor(Date.now() / 1000) * 1000;
}

/** The zone's canonical IANA name (`utc` -> `UTC`, `Etc/UTC` -> `UTC`), or null when Node does not know it. */
function canonicalTimeZone(name) {
  if (typeof name !== 'string') return null; // undefined would be the machine's own zone
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

const formatters = new Map();

/** The wall-clock fields of instant `ms` in `timeZone`, as numbers: [year, month, day, hour, minute, second]. */
function wallClock(ms, timeZone) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  const parts = {};
  for (const { type, value } of format.formatToParts(new Date(ms))) parts[type] = Number(value);
  return [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second];
}

/** The zone's offset from UTC at instant `ms`, in ms (New York in winter: -18000000). */
function zoneOffsetMs(ms, timeZone) {
  const [y, mo, d, h, mi, s] = wallClock(ms, timeZone);
  return Date.UTC(y, mo - 1, d, h, mi, s) - Math.floor(ms / 1000) * 1000;
}

const pad = (n) => String(n).padStart(2, '0');

/** Instant `ms` as the API writes it: `YYYY-MM-DD HH:MM:SS` in `timeZone` (default UTC). */
function formatApiDate(ms, timeZone = 'UTC') {
  if (timeZone === 'UTC') return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const [y, mo, d, h, mi, s] = wallClock(ms, timeZone);
  return `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/**
 * The instant a wall-clock time in `timeZone` names. A time that occurs twice (the hour repeated
 * when clocks go back) is its earlier occurrence; a time that does not occur (the hour skipped when
 * clocks go forward) is moved forward by the gap (New York's 02:30 on the spring-forward day is
 * 03:30 EDT), as PHP's DateTime and JavaScript's Temporal ('compatible') read them.
 */
function zonedWallToMs(y, mo, d, h, mi, s, timeZone) {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  // The offsets in force a day before and a day after: any transition near `wall` lies between.
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  const valid = [wall - before, wall - after].filter((ms) => zoneOffsetMs(ms, timeZone) === wall - ms);
  return valid.length ? Math.min(...valid) : wall - before;
}

const API_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ISO_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Parses `YYYY-MM-DD HH:MM:SS` or ISO 8601; null if neither. A datetime without an offset is read
 * in `timeZone` (default UTC); an ISO 8601 offset (or `Z`) is honoured whatever the zone.
 */
function parseApiOrIsoDate(text, timeZone = 'UTC') {
  let m = API_FORM.exec(text);
  let zone;
  if (!m) {
    m = ISO_FORM.exec(text);
    if (!m) return null;
    zone = m[7];
  }
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((v) => Number(v ?? 0));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  let ms = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(ms).getUTCDate() !== d) return null; // 2026-02-30 and the like
  if (zone === undefined) return zonedWallToMs(y, mo, d, h, mi, s, timeZone);
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  return ms;
}

module.exports = { formatApiDate, nowWholeSecondsMs, parseApiOrIsoDate, canonicalTimeZone, zoneOffsetMs, zonedWallToMs };
