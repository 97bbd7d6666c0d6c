'use strict';
// The API writes datetimes as `YYYY-MM-DD HH:MM:SS`; the sandbox keeps them in UTC.

/** Now, cut to whole seconds: stored times must be exactly what the API's datetime form can say. */
function nowWholeSecondsMs() {
  return Math.floor(Date.now() / 1000) * 1000;
}

function formatApiDate(ms) {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

const API_FORM = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const ISO_FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** Parses `YYYY-MM-DD HH:MM:SS` (UTC) or ISO 8601 (offset honoured, none means UTC); null if neither. */
function parseApiOrIsoDate(text) {
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
  if (zone && zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  return ms;
}

module.exports = { formatApiDate, nowWholeSecondsMs, parseApiOrIsoDate };
