// n8n's community-node rules, exactly as @n8n/node-cli bundles them, over the published code
// (nodes/, credentials/, package.json). Tests, the sandbox and benchmarks are dev-only Node code
// that legitimately uses timers and process; `npm run typecheck` covers the tests.
import { config } from '@n8n/node-cli/eslint';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'reports/**', '.stryker-tmp/**', '.state/**', 'sandbox/**', 'bench/**', 'test/**', 'examples/**', 'e2e/**', 'scripts/**', '*.config.*', 'gulpfile.js', 'jest.config.js'] },
	...config,
];
