// What was written through the console since `mark()` (recorded by test/setup-env.ts).
const logs = () => (globalThis as { __partnerTestLogs?: string[] }).__partnerTestLogs ?? [];

export function logsSince(mark: number): string {
	return logs().slice(mark).join('\n');
}

export function mark(): number {
	return logs().length;
}
