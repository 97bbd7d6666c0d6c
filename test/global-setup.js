// One temporary folder for the whole jest run, created before the test workers start so they (and
// every process a test starts) inherit it through the environment, and removed by
// global-teardown.js: n8n-core's user folder in it, and the run's temp folder (TMPDIR, which
// os.tmpdir() reads), which global-teardown.js checks is empty: a test removes the files it makes.
const { mkdirSync, mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

module.exports = async () => {
	// A caller that gives its own user folder (Stryker: test/mutation/jest.config.js) keeps its setup.
	if (process.env.N8N_USER_FOLDER) return;
	const root = mkdtempSync(path.join(tmpdir(), 'n8n-partner-test-'));
	process.env.PARTNER_TEST_TEMP = root;
	process.env.PARTNER_TEST_TMPDIR_BEFORE = process.env.TMPDIR ?? '';
	process.env.N8N_USER_FOLDER = path.join(root, 'n8n');
	process.env.TMPDIR = path.join(root, 'tmp');
	mkdirSync(process.env.N8N_USER_FOLDER);
	mkdirSync(process.env.TMPDIR);
};
