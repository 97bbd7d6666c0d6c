/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// n8n-core writes to its user folder: test/global-setup.js made one for this run (and removes it).
if (!process.env.N8N_USER_FOLDER) throw new Error('N8N_USER_FOLDER is unset: run the tests through jest, whose globalSetup makes it');
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';

// Record everything written through the console (n8n's logger binds console methods when it is
// created, so this must be in place before n8n loads), for tests that assert what never gets logged.
const logged: string[] = [];
(globalThis as { __partnerTestLogs?: string[] }).__partnerTestLogs = logged;
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[level].bind(console);
	console[level] = (...args: unknown[]) => {
		logged.push(args.map(String).join(' '));
		original(...args);
	};
}
// winston's console transport writes straight to the console's own stdout stream when it has one.
for (const stream of [(console as unknown as { _stdout?: NodeJS.WritableStream })._stdout, (console as unknown as { _stderr?: NodeJS.WritableStream })._stderr]) {
	if (!stream) continue;
	const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
	stream.write = ((chunk: unknown, ...rest: unknown[]) => {
		logged.push(String(chunk));
		return write(chunk, ...rest);
	}) as NodeJS.WritableStream['write'];
}
