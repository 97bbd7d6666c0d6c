/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-explicit-any -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Queue mode, installed the way a user does it: none of main, the worker and the webhook process
// has the package; Settings › Community Nodes on main installs it from the registry (the test's,
// behind its proxy: test/helpers/npmRegistry.ts) and n8n's pub/sub makes the worker and the webhook
// process install it from the same registry. Then Update, the same way. Saved workflows run on the
// worker, and a webhook is delivered to the webhook process, after each.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { n8nRest } from '../helpers/n8nRest';
import { newerBuild, startTestRegistry, type TestRegistry } from '../helpers/npmRegistry';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { savedWorkflows, type SavedWorkflow } from '../helpers/savedWorkflows';

/* eslint-disable @typescript-eslint/no-require-imports */
const { freePort, importWorkflows, packPackage, PACKAGE_NAME } = require('../../scripts/lib');
const { prepareWorkspace } = require('../../scripts/workspace');
const { startQueueInstallation } = require('../../scripts/queue');
/* eslint-enable @typescript-eslint/no-require-imports */

const PROCESSES = ['main', 'worker', 'webhook'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('queue mode: installed and updated through main, loaded by the worker and the webhook process too', () => {
	let sb: RunningSandbox;
	let q: any;
	let registry: TestRegistry;
	let tarball: string;
	let workflows: SavedWorkflow[];
	const client = n8nRest(() => q.process('main').url);
	const { rest } = client;
	const report: Record<string, unknown> = {};

	/** The version installed in each process's own user folder (undefined: not installed there, or still being written). */
	const installedVersions = () =>
		Object.fromEntries(
			PROCESSES.map((name) => {
				const file = path.join(q.userFolder(name), '.n8n', 'nodes', 'node_modules', PACKAGE_NAME, 'package.json');
				return [name, existsSync(file) ? versionIn(readFileSync(file, 'utf8')) : undefined];
			}),
		);
	// A process's npm may be writing the file as it is read (seen once: an empty package.json).
	const versionIn = (text: string): string | undefined => {
		try {
			return JSON.parse(text).version;
		} catch {
			return undefined;
		}
	};
	/** Waits until every process has `version` installed, and says how long that took. */
	const everywhere = async (version: string) => {
		const started = Date.now();
		const wanted = Object.fromEntries(PROCESSES.map((name) => [name, version]));
		for (let i = 0; i < 240 && JSON.stringify(installedVersions()) !== JSON.stringify(wanted); i++) await sleep(500);
		expect(installedVersions()).toEqual(wanted);
		return Date.now() - started;
	};
	const tarballFetches = (version: string) => registry.requests.filter((r) => r.via === 'tls' && r.path === `/${PACKAGE_NAME}/-/${PACKAGE_NAME}-${version}.tgz`);
	/**
	 * Every run of the saved workflows, checked; each production run (a webhook delivery) ran on the
	 * worker. Runs started as "Execute workflow" are checked wherever n8n runs them: on main in n8n 2.x
	 * (without OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS, which this suite does not set), on a worker in 3.0.
	 */
	const runAllOnWorker = async () => {
		for (const workflow of workflows) {
			const id = await workflow.runAndCheck(client);
			if (workflow.kind !== 'webhook') continue;
			expect({ workflow: workflow.id, onWorker: q.process('worker').output().includes(`Worker started execution ${id} `) }).toEqual({ workflow: workflow.id, onWorker: true });
		}
	};

	beforeAll(async () => {
		const started = Date.now();
		sb = await startSandbox({ orders: 50 });
		q = await startQueueInstallation();
		registry = await startTestRegistry(path.join(q.dir, 'registry'));
		tarball = packPackage();
		await registry.publish(tarball);
		await prepareWorkspace({ userFolder: q.userFolder('main'), sandbox: sb.raw.describe(), n8nPort: 0, extraEnv: q.env, install: false, publish: [] });
		const webhookPort = await freePort();
		workflows = await savedWorkflows({
			sandbox: sb,
			webhookOrigin: () => `http://127.0.0.1:${webhookPort}`,
			importWorkflows: (folder: string) => importWorkflows(q.userFolder('main'), folder, q.env),
		});
		for (const name of PROCESSES) registry.prepareUserFolder(q.userFolder(name));
		await q.start('main', { extraEnv: registry.env });
		await Promise.all([q.start('worker', { extraEnv: registry.env }), q.start('webhook', { port: webhookPort, extraEnv: registry.env })]);
		expect((await rest('POST', '/owner/setup', { email: 'queue-installer@example.com', firstName: 'Q', lastName: 'I', password: 'Queue-Installer-2026' })).status).toBe(200);
		expect(installedVersions()).toEqual({ main: undefined, worker: undefined, webhook: undefined });
		report.setupMs = Date.now() - started;
	}, 900_000);

	afterAll(async () => {
		process.stdout.write(`queue installer report: ${JSON.stringify(report)}\n`);
		await registry?.close();
		await q?.stop();
		await sb?.close();
	}, 120_000);

	test('Install on main: the worker and the webhook process install the same version from the registry; saved workflows run (production runs on the worker), a webhook reaches the webhook process', async () => {
		const version = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')).version;
		const res = await rest('POST', '/community-packages', { name: PACKAGE_NAME });
		expect(res.status).toBe(200);
		expect(res.json.data).toMatchObject({ packageName: PACKAGE_NAME, installedVersion: version });
		report.installSpreadMs = await everywhere(version);
		// Each process fetched the tarball itself (its own npm pack), through the proxy.
		expect(tarballFetches(version)).toHaveLength(PROCESSES.length);

		for (const workflow of workflows) await workflow.publishIfTriggered(rest);
		await runAllOnWorker();
	}, 600_000);

	test('Update on main: the worker and the webhook process follow to the newer build without a restart; the saved workflows run again', async () => {
		const newer = newerBuild(tarball, path.join(q.dir, 'newer'));
		await registry.publish(newer.tarball);
		const pids = Object.fromEntries(PROCESSES.map((name) => [name, q.process(name).child.pid]));
		const res = await rest('PATCH', '/community-packages', { name: PACKAGE_NAME });
		expect(res.status).toBe(200);
		expect(res.json.data).toMatchObject({ installedVersion: newer.version });
		report.updateSpreadMs = await everywhere(newer.version);
		expect(tarballFetches(newer.version)).toHaveLength(PROCESSES.length);
		expect(Object.fromEntries(PROCESSES.map((name) => [name, q.process(name).child.pid]))).toEqual(pids);
		await runAllOnWorker();
		for (const name of PROCESSES) expect(q.process(name).output()).not.toContain('Class could not be found');
	}, 600_000);
});
