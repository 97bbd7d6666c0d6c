// Removes the folder global-setup.js made (and only that one: a folder given by the caller stays),
// and fails the run if a test left anything in the run's temp folder. Suites against the real n8n
// (test/jest.real-n8n.js) only report it: n8n, and the npm it runs, write temp files of their own.
const { readdirSync, rmSync } = require('node:fs');
const path = require('node:path');

module.exports = async (_globalConfig, projectConfig) => {
	const root = process.env.PARTNER_TEST_TEMP;
	if (!root) return;
	const left = readdirSync(path.join(root, 'tmp'));
	rmSync(root, { recursive: true, force: true });
	process.env.TMPDIR = process.env.PARTNER_TEST_TMPDIR_BEFORE;
	if (!process.env.TMPDIR) delete process.env.TMPDIR;
	if (!left.length) return;
	const message = `The tests left ${left.length} file(s) in the temp folder: ${left.join(', ')}. A test removes what it makes, and gives a process it starts a temp folder that it removes (test/helpers/tempDir.ts).`;
	if (projectConfig?.globals?.partnerTempCheck === 'report') process.stderr.write(`${message} (Removed.)\n`);
	else throw new Error(message);
};
