/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Installed and updated the way a user does it: n8n's own installer (Settings › Community Nodes,
// i.e. its REST endpoint) fetches the package from "registry.npmjs.org", here the test's registry
// behind its proxy (test/helpers/npmRegistry.ts). Saved workflows of every node run before and
// after Update, in the same n8n process. docs/testing.md says what this stands in for.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartnerTrigger/MarketplacePartnerTrigger.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { n8nRest } from '../helpers/n8nRest';
import { buildAlias, newerBuild, startTestRegistry, type TestRegistry } from '../helpers/npmRegistry';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { savedWorkflows, type SavedWorkflow } from '../helpers/savedWorkflows';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort, importWorkflows, n8nProfile, packPackage, startN8n, N8N_MAJOR, N8N_VERSION, PACKAGE_NAME } = require('../../scripts/lib');
const { prepareWorkspace } = require('../../scripts/workspace');
/* eslint-enable @typescript-eslint/no-require-imports */

const NODES = [new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()].map(({ description }) => description);
const NODE_TYPES = NODES.map(({ name }) => `${PACKAGE_NAME}.${name}`);
/** Every released version of every node, as `<type>@<typeVersion>`: a saved workflow of each must keep running. */
const RELEASED = NODES.flatMap(({ name, version }) => [version].flat().map((v) => `${PACKAGE_NAME}.${name}@${v}`)).sort();
/** n8n asks its own service whether a package is banned before installing (and installs when unreachable). */
const BANNED_PACKAGE_CHECK_HOST = 'api.n8n.io';
/** n8n 1.x's minor line; 2.x and later count as past every 1.x line. */
const MINOR_1X = N8N_MAJOR === 1 ? Number(N8N_VERSION.split('.')[1]) : Infinity;
/** n8n asks the registry for the version itself before `npm pack` (seen on 1.110.1 and later; 1.94.1 and 1.100.1 leave it to npm). */
const OWN_VERSION_CHECK = MINOR_1X >= 110;
/** The running n8n serves an updated package's node descriptions without a restart (seen on 1.100.1 and later; 1.94.1 serves the old ones until restarted). */
const RELOADS_DESCRIPTIONS = MINOR_1X >= 100;
/**
 * n8n packs the package and installs it without its peer dependencies (seen on 1.94.1 and later);
 * 1.88.0 runs `npm install <package>` in its nodes folder, which also installs the peer n8n-workflow
 * from the registry beside it.
 */
const STRIPS_PEERS = MINOR_1X >= 94;
const OWNER = { email: 'installer@example.com', firstName: 'I', lastName: 'I', password: 'Installer-Partner-2026' };

describe("n8n's own installer: Settings › Community Nodes installs the package from the registry, Update replaces it, saved workflows keep running", () => {
	let sb: RunningSandbox;
	let dir: string;
	let registry: TestRegistry;
	let userFolder: string;
	let n8nPort: number;
	let n8n: { url: string; child: { pid: number; exitCode: number | null }; stop(): Promise<void>; output(): string };
	let firstVersion: string;
	let tarball: string;
	let workflows: SavedWorkflow[];
	const client = n8nRest(() => n8n.url);
	const { rest, page } = client;
	const installedDir = () => path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	/**
	 * The registry's environment, and its host allowed by name as docs/production.md tells operators
	 * to allow a registry that SSRF protection blocks (hardened run): n8n's own registry requests (its
	 * version and checksum checks) go through SSRF protection, the npm it runs does not. Here
	 * registry.npmjs.org resolves to 203.0.113.80, a documentation range on n8n's block list: blocked,
	 * n8n would fall back to `npm view`, and its own check would not be tested. No effect when off.
	 */
	const installerEnv = () => ({ ...registry.env, N8N_SSRF_ALLOWED_HOSTNAMES: 'registry.npmjs.org' });

	beforeAll(async () => {
		sb = await startSandbox({ orders: 50 });
		dir = mkdtempSync(path.join(tmpdir(), 'n8n-partner-installer-'));
		registry = await startTestRegistry(path.join(dir, 'registry'));
		tarball = packPackage();
		firstVersion = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')).version;
		await registry.publish(tarball);

		userFolder = path.join(dir, 'user');
		n8nPort = await freePort();
		// The credential and the saved workflows, imported before the package exists in n8n, as
		// workflows arrive from another instance; nothing is published yet (its nodes are unknown).
		await prepareWorkspace({ userFolder, sandbox: sb.raw.describe(), n8nPort, install: false, publish: [] });
		workflows = await savedWorkflows({
			sandbox: sb,
			webhookOrigin: () => n8n.url,
			importWorkflows: (folder: string) => importWorkflows(userFolder, folder),
		});
		registry.prepareUserFolder(userFolder);
		// Unverified packages on, explicitly, here only: the package is not verified by n8n, and n8n
		// 2.41's install endpoint takes no checksum (`verify: true` wants n8n's vetted list), so with them
		// off Settings › Community Nodes refuses it; the last test shows that under the hardened profile.
		// n8n 3.0 turns them off by default: its admin turns them on for this package (README).
		n8n = await startN8n(userFolder, { port: n8nPort, extraEnv: { ...installerEnv(), N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' } });
		// n8n 1.x and 2.0 answer their readiness check seconds before their REST routes exist: 1.x
		// answers 404 until then, 2.0.3 503 "n8n is starting up" or, on a busy machine, a reset connection.
		const setUpOwner = () => rest('POST', '/owner/setup', OWNER).catch((error: Error) => ({ status: 0, error }));
		let owner = await setUpOwner();
		for (let i = 0; i < 120 && [0, 404, 503].includes(owner.status); i++) {
			await new Promise((r) => setTimeout(r, 500));
			owner = await setUpOwner();
		}
		expect(owner.status).toBe(200);
	}, 600_000);

	afterAll(async () => {
		await n8n?.stop();
		await registry?.close();
		await sb?.close();
		if (dir) rmSync(dir, { recursive: true, force: true });
	}, 60_000);

	test('Install: the package name alone, as the Settings page sends it; n8n fetches it from the registry over TLS and loads its three nodes without a restart', async () => {
		registry.requests.length = 0;
		const res = await rest('POST', '/community-packages', { name: PACKAGE_NAME });
		// A refusal on some n8n line says why: n8n's answer is what the failure prints.
		expect(res.status === 200 ? 200 : `HTTP ${res.status}: ${JSON.stringify(res.json)}`).toBe(200);
		expect(res.json.data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: firstVersion });
		expect(res.json.data.installedNodes.map((n: { type: string }) => n.type).sort()).toEqual([...NODE_TYPES].sort());

		// Through the proxy, as registry.npmjs.org: n8n's own version check (not npm), then npm pack.
		const tls = registry.requests.filter((r) => r.via === 'tls');
		expect(tls.some((r) => r.path === `/${PACKAGE_NAME}/latest` && !r.userAgent.startsWith('npm/') && r.status === 200)).toBe(OWN_VERSION_CHECK);
		expect(tls.some((r) => r.path === `/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${firstVersion}.tgz` && r.userAgent.startsWith('npm/') && r.status === 200)).toBe(true);
		// The one other host n8n asked for, refused: its banned-package check, which fails open (a
		// tunnel, or on older lines such as 1.94 the request itself in the clear).
		expect([...new Set(registry.refused.map((r) => /^(?:CONNECT |[A-Z]+ https:\/\/)([^/:\s]+)/.exec(r)?.[1] ?? r))]).toEqual([BANNED_PACKAGE_CHECK_HOST]);

		const installed = JSON.parse(readFileSync(path.join(installedDir(), 'package.json'), 'utf8'));
		expect(installed.version).toBe(firstVersion);
		// n8n strips dev and peer dependencies before its npm install: n8n-workflow is n8n's own.
		expect(installed.peerDependencies === undefined).toBe(STRIPS_PEERS);
		expect(existsSync(path.join(installedDir(), 'node_modules', 'n8n-workflow'))).toBe(false);
		expect(existsSync(path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-workflow'))).toBe(!STRIPS_PEERS);
		// The package itself only ever from the test registry; on 1.88 its peer from the real one.
		expect(registry.requests.filter((r) => r.upstream && r.path.startsWith(`/${PACKAGE_NAME}`))).toEqual([]);
		expect(registry.requests.some((r) => r.upstream)).toBe(!STRIPS_PEERS);

		const listed = await rest('GET', '/community-packages');
		expect(listed.json.data).toEqual([expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: firstVersion })]);
		// Later 2.x lines (2.41, not 2.20) say whether the package's nodes loaded.
		if ('failedLoading' in listed.json.data[0]) expect(listed.json.data[0].failedLoading).toBe(false);
		expect(listed.json.data[0].updateAvailable).toBeUndefined();
	});

	test('a saved workflow of each released node version runs in the running n8n (action node v1 to v3, both triggers v1 and v2)', async () => {
		const covered = [...new Set(workflows.flatMap((w) => w.nodeVersions))].sort();
		expect(covered).toEqual(RELEASED);
		for (const workflow of workflows) await workflow.publishIfTriggered(rest);
		for (const workflow of workflows) await workflow.runAndCheck(client);
	}, 600_000);

	test('Update: a newer build published to the registry shows as an update; Update replaces it in the running n8n; every saved workflow keeps its typeVersion and runs again', async () => {
		const newer = newerBuild(tarball, path.join(dir, 'newer'));
		await registry.publish(newer.tarball);

		// The Settings page's list: n8n's `npm outdated` (through the proxy) sets the Update button.
		const listed = await rest('GET', '/community-packages');
		expect(listed.json.data[0]).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: firstVersion, updateAvailable: newer.version });

		const typeVersions = async () =>
			Object.fromEntries(
				await Promise.all(workflows.map(async (w) => [w.id, (await rest('GET', `/workflows/${w.id}`)).json.data.nodes.map((n: any) => `${n.name}@${n.typeVersion}`)])),
			);
		const before = await typeVersions();
		// The action node's aliases in the editor's node types file, once `wanted` holds for them (up to
		// 30 s). n8n 1.x rewrites that file in place after an install or update, after its answer, and
		// serves it while it writes: a read cut short counts as not yet.
		const aliasesIn = (types: any[]): string[] => types.find((t) => t.name === NODE_TYPES[0]).codex.alias;
		const aliasesOnce = async (wanted: (aliases: string[]) => boolean): Promise<string[]> => {
			for (let attempt = 1; attempt < 60; attempt++) {
				const types: any[] | undefined = await page('/types/nodes.json').catch(() => undefined);
				if (types && wanted(aliasesIn(types))) return aliasesIn(types);
				await new Promise((r) => setTimeout(r, 500));
			}
			return aliasesIn(await page('/types/nodes.json')); // the last try's failure is the test's
		};
		expect(await aliasesOnce(() => true)).not.toContain(buildAlias(newer.version));
		const pid = n8n.child.pid;
		registry.requests.length = 0;
		const res = await rest('PATCH', '/community-packages', { name: PACKAGE_NAME });
		expect(res.status).toBe(200);
		expect(res.json.data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: newer.version });
		expect(registry.requests.some((r) => r.via === 'tls' && r.path === `/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${newer.version}.tgz`)).toBe(true);

		// The same process, now running the new build's files: the editor's node types carry its codex.
		expect(n8n.child.pid).toBe(pid);
		expect(n8n.child.exitCode).toBeNull();
		if (!RELOADS_DESCRIPTIONS) {
			// What docs/compatibility.md tells users of these lines: restart n8n after an Update.
			await n8n.stop();
			n8n = await startN8n(userFolder, { port: n8nPort, extraEnv: { ...installerEnv(), N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' } });
		}
		expect(await aliasesOnce((aliases) => aliases.includes(buildAlias(newer.version)))).toContain(buildAlias(newer.version));
		expect(JSON.parse(readFileSync(path.join(installedDir(), 'package.json'), 'utf8')).version).toBe(newer.version);
		// Only one version is installed: no backup or second copy left beside it.
		expect(readdirSync(path.dirname(installedDir())).filter((f) => f.startsWith(PACKAGE_NAME))).toEqual([PACKAGE_NAME]);
		const after = await rest('GET', '/community-packages');
		expect(after.json.data[0]).toMatchObject({ installedVersion: newer.version });
		if ('failedLoading' in after.json.data[0]) expect(after.json.data[0].failedLoading).toBe(false);
		expect(after.json.data[0].updateAvailable).toBeUndefined();

		expect(await typeVersions()).toEqual(before);
		for (const workflow of workflows) await workflow.runAndCheck(client);
		if (RELOADS_DESCRIPTIONS) expect(n8n.child.pid).toBe(pid);
		expect(n8n.output()).not.toContain('Class could not be found');
	}, 600_000);

	// Hardened n8n (2.x e2e run): the same n8n restarted with unverified packages off, as n8n 3.0 will
	// default to. n8n 2.41 still loads the installed package (3.0 announces it will not), but its
	// installer refuses the package: no update offered, Update refused unless the call names the
	// version's checksum (the registry's dist.integrity), which n8n checks against the registry.
	(n8nProfile() === 'hardened' ? test : test.skip)('unverified packages off: the installed package still loads and runs; Update is refused without a checksum and goes through with it', async () => {
		const installed = () => JSON.parse(readFileSync(path.join(installedDir(), 'package.json'), 'utf8')).version;
		const current = installed();
		await n8n.stop();
		n8n = await startN8n(userFolder, { port: n8nPort, extraEnv: installerEnv() });
		const listed = await rest('GET', '/community-packages');
		expect(listed.json.data).toEqual([expect.objectContaining({ packageName: PACKAGE_NAME, installedVersion: current })]);
		if ('failedLoading' in listed.json.data[0]) expect(listed.json.data[0].failedLoading).toBe(false);
		for (const workflow of workflows) await workflow.runAndCheck(client);

		const newer = newerBuild(tarball, path.join(dir, 'newer-2'), 2);
		await registry.publish(newer.tarball);
		// n8n asks npm for updates only when unverified packages are on: no Update button.
		expect((await rest('GET', '/community-packages')).json.data[0].updateAvailable).toBeUndefined();
		registry.requests.length = 0;
		const refused = await rest('PATCH', '/community-packages', { name: PACKAGE_NAME, version: newer.version });
		expect(refused.status).toBeGreaterThanOrEqual(400);
		expect(JSON.stringify(refused.json)).toContain('Installation of unverified community packages is forbidden!');
		expect(registry.requests.filter((r) => r.path.endsWith('.tgz'))).toEqual([]);
		expect(installed()).toBe(current);

		const checksum = `sha512-${createHash('sha512').update(readFileSync(newer.tarball)).digest('base64')}`;
		const updated = await rest('PATCH', '/community-packages', { name: PACKAGE_NAME, version: newer.version, checksum });
		expect({ status: updated.status, version: updated.json?.data?.installedVersion }).toEqual({ status: 200, version: newer.version });
		expect(installed()).toBe(newer.version);
		for (const workflow of workflows) await workflow.runAndCheck(client);
	}, 600_000);
});
