// Removes the user folder global-setup.js made (and only that one: a folder given by the caller stays).
const { rmSync } = require('node:fs');

module.exports = async () => {
	const folder = process.env.PARTNER_TEST_TEMP;
	if (folder) rmSync(folder, { recursive: true, force: true });
};
