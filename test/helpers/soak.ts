/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The long checks' two sizes: `npm test` runs each of them small enough for a developer's loop, and
// `npm run test:soak` (its own CI step) runs the same files at full size (`SOAK=1`).
export const SOAK = process.env.SOAK === '1';

/** `quick` in `npm test`, `full` in the soak run. */
export function soakSize(quick: number, full: number): number {
	return SOAK ? full : quick;
}

/** A property's runs: a quarter of them in `npm test`, all of them in the soak run. */
export function propertyRuns(full: number): number {
	return soakSize(Math.ceil(full / 4), full);
}
