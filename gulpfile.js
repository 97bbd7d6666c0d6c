// Copies what tsup does not bundle: node icons and codex files beside the built nodes, and the
// icon beside the credential (n8n resolves `file:` icons relative to the built file), and the output
// schemas: n8n serves `<node dir>/__schema__/v<version>/<resource>/<operation>.json` of any loaded
// node (n8n-core's resolveOutputSchemaPath), so the editor can offer fields before a run.
const { src, dest, parallel } = require('gulp');

function nodeAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.png', 'nodes/**/*.node.json', 'nodes/**/__schema__/**/*.json'], { encoding: false }).pipe(dest('dist/nodes'));
}

function credentialIcons() {
	return src('nodes/MarketplacePartner/marketplacePartner*.svg', { encoding: false }).pipe(dest('dist/credentials'));
}

exports['build:assets'] = parallel(nodeAssets, credentialIcons);
