/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// What was written through the console since `mark()` (recorded by test/setup-env.ts).
const logs = () => (globalThis as { __partnerTestLogs?: string[] }).__partnerTestLogs ?? [];

export function logsSince(mark: number): string {
	return logs().slice(mark).join('\n');
}

export function mark(): number {
	return logs().length;
}
