/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The example workflows as n8n imports them (n8n import:workflow keeps their ids).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(__dirname, '../../examples');
const examples = readdirSync(dir)
	.filter((f) => f.endsWith('.json'))
	.map((f) => ({ file: f, workflow: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as { id: string } }));

test('every example has its own id of at most 16 characters: n8n 1.x saves a workflow\'s static data only for such ids', () => {
	// n8n 1.123 isWorkflowIdValid: `id.length <= 16`; a longer id (as imported from a file) never gets
	// its static data saved, so the Orders Trigger would start over after every restart.
	expect(examples.length).toBeGreaterThan(0);
	for (const { file, workflow } of examples) expect({ file, length: workflow.id.length <= 16 }).toEqual({ file, length: true });
	expect(new Set(examples.map((e) => e.workflow.id)).size).toBe(examples.length);
});

test('an example works as a user imports it: no placeholder only our start script fills, and a sheet it reads that is not there is an error naming it', () => {
	type Node = { name: string; type: string; typeVersion: number; parameters: { fileSelector?: string; operation?: string }; notes?: string; notesInFlow?: boolean };
	const readers: Array<{ file: string; node: Node }> = [];
	for (const { file, workflow } of examples) {
		const text = JSON.stringify(workflow);
		// A placeholder such as __EXAMPLES_DIR__ makes a path that matches nothing: a run that reads no file, silently.
		expect({ file, placeholders: text.match(/__[A-Z_]+__/g) ?? [] }).toEqual({ file, placeholders: [] });
		for (const node of (workflow as unknown as { nodes: Node[] }).nodes) {
			if (node.type === 'n8n-nodes-base.readWriteFile' && node.parameters.operation !== 'write') readers.push({ file, node });
		}
	}
	expect(readers.length).toBeGreaterThan(0);
	for (const { file, node } of readers) {
		expect({
			file,
			// n8n 2.x's default files folder (~/.n8n-files) as its Docker image has it: allowed by n8n's file access.
			path: node.parameters.fileSelector?.startsWith('/home/node/.n8n-files/'),
			// Read/Write Files 1.1 fails with "No file(s) found" naming the path; version 1 outputs nothing (n8n 1.x runs 1.1 as 1).
			version: node.typeVersion >= 1.1,
			// The canvas shows what to do under the node.
			note: node.notesInFlow === true && /~\/\.n8n-files/.test(node.notes ?? ''),
		}).toEqual({ file, path: true, version: true, note: true });
	}
});
