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
