// One n8n user folder for the whole jest run (n8n-core writes there), created before the test
// workers start so they inherit it through the environment, and removed by global-teardown.js.
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

module.exports = async () => {
	if (process.env.N8N_USER_FOLDER) return;
	const folder = mkdtempSync(path.join(tmpdir(), 'n8n-partner-test-'));
	process.env.N8N_USER_FOLDER = folder;
	process.env.PARTNER_TEST_TEMP = folder;
};
