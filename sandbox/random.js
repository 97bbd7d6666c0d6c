'use strict';
// Deterministic pseudo-random numbers (mulberry32) so `--seed N` always yields the same data.
function createRandom(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    hex: (bytes) => {
      let out = '';
      for (let i = 0; i < bytes; i++) out += Math.floor(next() * 256).toString(16).padStart(2, '0');
      return out;
    },
  };
}

module.exports = { createRandom };
