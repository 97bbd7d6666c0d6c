import { defineConfig } from 'tsup';

// One CommonJS file per node and credential, at the paths n8n's package loader expects
// (package.json "n8n" block). n8n-workflow is provided by n8n at run time.
export default defineConfig({
	entry: {
		'credentials/MarketplacePartnerApi.credentials': 'credentials/MarketplacePartnerApi.credentials.ts',
		'nodes/MarketplacePartner/MarketplacePartner.node': 'nodes/MarketplacePartner/MarketplacePartner.node.ts',
		'nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node': 'nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node.ts',
		'nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node': 'nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node.ts',
	},
	outDir: 'dist',
	format: ['cjs'],
	target: 'node20',
	platform: 'node',
	external: ['n8n-workflow'],
	clean: true,
	sourcemap: false,
	dts: false,
	splitting: false,
});
