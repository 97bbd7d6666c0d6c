/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The published package: `npm run build` output, the n8n block, and what `npm pack` would ship.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { buildOnce } from '../helpers/build';
import { outputSchemaFile, readSchema } from '../helpers/outputSchema';
import { tempDir } from '../helpers/tempDir';

const root = path.join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// npm and the tools it runs get a temp folder this file removes.
const temp = tempDir('n8n-partner-build-');
const npm = (args: string[]) => execFileSync('npm', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: temp.env });

describe('package', () => {
	beforeAll(buildOnce, 180_000);
	afterAll(() => temp.remove());

	test('has no runtime dependencies and n8n-workflow as a "*" peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.license).toBe('MIT');
		expect(pkg.files).toEqual(['dist', 'CHANGELOG.md']);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
	});

	// The npm page shows the README. npm gives a heading the id `user-content-<GitHub's slug>`.
	// n8n 2.41's editor opens a credential's documentationUrl as it is, but appends
	// `?utm_source=…` to a codex primaryDocumentation URL by string concatenation, which would
	// turn an anchor into one that matches nothing: codex URLs carry none.
	test('documentation links open the npm page, at headings the README has', () => {
		const npmPage = 'https://www.npmjs.com/package/n8n-nodes-marketplace-partner';
		const codexUrls = pkg.n8n.nodes.flatMap((node: string) => {
			const codex = JSON.parse(readFileSync(path.join(root, node.replace(/\.js$/, '.json')), 'utf8'));
			return Object.values(codex.resources as Record<string, Array<{ url: string }>>).flat().map((r) => r.url);
		});
		expect(codexUrls).toEqual(Array(6).fill(npmPage));
		const { MarketplacePartnerApi } = require(path.join(root, 'dist/credentials/MarketplacePartnerApi.credentials.js'));
		const credential = new MarketplacePartnerApi();
		const anchored = [credential.documentationUrl, credential.httpRequestNode.docsUrl];
		// GitHub's slug rule, which npm follows: lower case, punctuation dropped, each space a hyphen.
		const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
		const headings = readFileSync(path.join(root, 'README.md'), 'utf8')
			.split('\n')
			.filter((line) => /^#{1,6} /.test(line))
			.map((line) => `${npmPage}#user-content-${slug(line.replace(/^#+ /, ''))}`);
		expect(headings).toContain(`${npmPage}#user-content-credentials`);
		expect(anchored.filter((url) => !headings.includes(url))).toEqual([]);
		expect(pkg.homepage).toBe(npmPage);
	});

	test('every file the n8n block names is built, with its icons and codex', () => {
		const named = [...pkg.n8n.credentials, ...pkg.n8n.nodes];
		expect(named).toEqual(
			expect.arrayContaining([
				'dist/credentials/MarketplacePartnerApi.credentials.js',
				'dist/nodes/MarketplacePartner/MarketplacePartner.node.js',
				'dist/nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node.js',
				'dist/nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node.js',
			]),
		);
		for (const file of [
			...named,
			'dist/nodes/MarketplacePartner/marketplacePartner.svg',
			'dist/nodes/MarketplacePartner/marketplacePartner.dark.svg',
			'dist/nodes/MarketplacePartner/MarketplacePartner.node.json',
			'dist/credentials/marketplacePartner.svg',
			'dist/nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node.json',
			'dist/nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node.json',
		]) {
			expect(existsSync(path.join(root, file))).toBe(true);
		}
	});

	// n8n serves GET /schemas/<node type>/<version>.json of a node without resource or operation from
	// its built file's folder; two such nodes in one folder would share a schema, hence the Orders
	// Trigger's own folder.
	test('each trigger ships the output schema n8n resolves for it, in its own place', () => {
		const files = pkg.n8n.nodes.slice(1).map((node: string) => outputSchemaFile(path.dirname(node)));
		expect(files.map((file: string) => path.relative(root, file))).toEqual([
			'dist/nodes/MarketplacePartnerTrigger/__schema__/v1.0.0.json',
			'dist/nodes/MarketplacePartnerOrdersTrigger/__schema__/v1.0.0.json',
		]);
		const [webhook, orders] = files.map(readSchema);
		expect(Object.keys(webhook.properties!)).toEqual(['event', 'webhookId', 'timestamp', 'timestampIso', 'payload', 'headers']);
		expect(orders.properties).toMatchObject({ event: { enum: ['order.created', 'order.updated'] }, order_item_id: {}, detail: {} });
	});

	test('the built files load with only n8n-workflow from outside, and export the right classes', () => {
		for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) {
			const source = readFileSync(path.join(root, file), 'utf8');
			const required = [...source.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
			expect(required.filter((m) => !m.startsWith('node:') && !['crypto', 'n8n-workflow'].includes(m))).toEqual([]);
			const exported = require(path.join(root, file));
			const className = path.basename(file).split('.')[0];
			expect(typeof exported[className]).toBe('function');
		}
		const { MarketplacePartner } = require(path.join(root, pkg.n8n.nodes[0]));
		expect(new MarketplacePartner().description).toMatchObject({ name: 'marketplacePartner', usableAsTool: true });
		const { MarketplacePartnerTrigger } = require(path.join(root, pkg.n8n.nodes[1]));
		const trigger = new MarketplacePartnerTrigger();
		expect(trigger.description).toMatchObject({ name: 'marketplacePartnerTrigger', group: ['trigger'] });
		expect(trigger.description.usableAsTool).toBeUndefined();
		expect(Object.keys(trigger.webhookMethods.default).sort()).toEqual(['checkExists', 'create', 'delete']);
		const { MarketplacePartnerOrdersTrigger } = require(path.join(root, pkg.n8n.nodes[2]));
		const poller = new MarketplacePartnerOrdersTrigger();
		expect(poller.description).toMatchObject({ name: 'marketplacePartnerOrdersTrigger', group: ['trigger'], polling: true });
		expect(poller.description.usableAsTool).toBeUndefined();
		expect(typeof poller.poll).toBe('function');
	});

	// n8n's own loader (n8n-core's PackageDirectoryLoader) reads the package; n8n then copies each
	// credential type with a spread before writing the editor's /types/credentials.json (its
	// LoadNodesAndCredentials.postProcessLoaders), and the editor's HTTP Request node offers under
	// Predefined Credential Type only the types whose served JSON has `authenticate` (its
	// CredentialsSelect: `has:authenticate`, skipping `genericAuth`). A method on the class's prototype
	// is lost in that copy, and the credential was missing from the list.
	test("n8n's loader serves the credential to the editor with authenticate, as HTTP Request's Credential Type list requires", async () => {
		const { PackageDirectoryLoader } = require('n8n-core');
		const loader = new PackageDirectoryLoader(root);
		await loader.loadAll();
		const loaded = loader.types.credentials.find((c: { name: string }) => c.name === 'marketplacePartnerApi');
		const served = JSON.parse(JSON.stringify({ ...loaded }));
		expect(served.authenticate).toEqual({});
		expect(served.genericAuth).toBeUndefined();
		expect(served.hidden).toBeUndefined();
		expect(served.restrictToSupportedNodes).toBeUndefined();
		// And the node that loaded from it still signs (the function itself, on the instance).
		const signed = await loaded.authenticate({ baseUrl: 'https://partner.example.com/api/partner/v1', clientId: 'c', clientSecret: 's' }, { url: 'https://partner.example.com/api/partner/v1/ping.php', method: 'GET' });
		expect(signed.headers).toMatchObject({ 'X-SVC-CLIENT-ID': 'c', 'X-SVC-SIGNATURE': expect.stringMatching(/^[0-9a-f]{64}$/) });
	});

	test('npm pack ships dist, README, LICENSE, CHANGELOG and package.json only', () => {
		const [report] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts']));
		const files: string[] = report.files.map((f: { path: string }) => f.path);
		const others = ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'];
		expect(files.filter((f) => !f.startsWith('dist/')).sort()).toEqual(others);
		expect(files).toEqual(expect.arrayContaining(['dist/nodes/MarketplacePartnerTrigger/__schema__/v1.0.0.json', 'dist/nodes/MarketplacePartnerOrdersTrigger/__schema__/v1.0.0.json']));
	});

	test('author, repository and bugs name the same public GitHub repository (n8n verification)', () => {
		const repo = 'https://github.com/n8n-nodes-marketplace-partner/n8n-nodes-marketplace-partner';
		expect(pkg.repository).toEqual({ type: 'git', url: `git+${repo}.git` });
		expect(pkg.bugs).toEqual({ url: `${repo}/issues` });
		expect(pkg.author.name).toBeTruthy();
		expect(repo.startsWith(pkg.author.url)).toBe(true);
	});

	test('a plain npm publish is refused by the prepublishOnly guard (publishing goes through npm run release in GitHub Actions)', () => {
		expect(pkg.scripts.prepublishOnly).toBe('n8n-node prerelease');
		// Installs skip scripts by a flag (.ci/run, README), not by an .npmrc, which would skip this guard too.
		expect(existsSync(path.join(root, '.npmrc'))).toBe(false);
		const env = Object.fromEntries(Object.entries(temp.env).filter(([k]) => k !== 'RELEASE_MODE' && !/^npm_config_/i.test(k)));
		const published = spawnSync('npm', ['publish', '--dry-run'], { cwd: root, encoding: 'utf8', env });
		expect(published.status).not.toBe(0);
		expect(published.stdout + published.stderr).toContain('Run `npm run release` to publish the package');
	}, 60_000);
});
