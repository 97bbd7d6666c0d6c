'use strict';
// Query parameters of the GET endpoints.
const { ApiError } = require('../errors');

/** A whole-number query parameter in [min, max], or `fallback` when absent; anything else is invalid_parameter. */
function intParam(query, name, { min, max, fallback }) {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Infinity ? `${min} or more` : `from ${min} to ${max}`;
    throw new ApiError('invalid_parameter', `${name} must be a whole number ${range}.`, { field: name });
  }
  return value;
}

module.exports = { intParam };
