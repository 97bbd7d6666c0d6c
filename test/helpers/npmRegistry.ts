/* eslint-disable @n8n/community-nodes/no-dangerous-functions, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The npm registry as n8n's installer meets it, offline: a tiny registry (packuments, tarballs,
// `npm publish`) that answers for https://registry.npmjs.org behind a CONNECT proxy on loopback,
// with a certificate for that host signed by a CA this helper makes. n8n's process and its npm
// child reach it through HTTPS_PROXY and trust the CA (NODE_EXTRA_CA_CERTS, npm's cafile), so n8n
// keeps its default registry setting: no custom registry, nothing licensed, no /etc/hosts edit.
// Any other host is refused by the proxy and written down, never contacted. A package the registry
// does not hold (n8n-workflow, which n8n before 1.94 installs as the package's peer) is fetched from
// the real registry, as a registry mirror with an uplink would; the package itself never is.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { cleanEnv, N8N_MAJOR, N8N_LINE } = require('../../scripts/lib');

/** The only host the proxy serves: the registry n8n uses by default. */
export const REGISTRY_HOST = 'registry.npmjs.org';
const REGISTRY_URL = `https://${REGISTRY_HOST}`;

export interface RegistryRequest {
	method: string;
	path: string;
	/**
	 * `tls`: through the proxy's tunnel as registry.npmjs.org; `forward`: an absolute https URL sent to
	 * the proxy in the clear (older n8n lines' axios does so through HTTPS_PROXY); `publish`: the
	 * loopback address `npm publish` uses.
	 */
	via: 'tls' | 'forward' | 'publish';
	userAgent: string;
	status: number;
	/** Answered by the real registry: a package the test registry does not hold. */
	upstream: boolean;
}

export interface TestRegistry {
	/** Environment for n8n (and so its npm child): proxy, trusted CA, an npm cache and config of its own. */
	env: Record<string, string>;
	/**
	 * Readies an n8n user folder. n8n 1.x and 2.0 run `npm outdated` (the Update button) with a bare
	 * environment (PATH, NODE_PATH, APPDATA, NODE_ENV only; 2.11.4 and later pass theirs on): there
	 * the same settings go into an npm project config (.npmrc) in the folder that npm runs in,
	 * <N8N_USER_FOLDER>/.n8n/nodes.
	 */
	prepareUserFolder(userFolder: string): void;
	/** Every request the registry answered, in order. */
	requests: RegistryRequest[];
	/** Every proxy request for another host, refused (`CONNECT api.n8n.io:443`, ...). */
	refused: string[];
	/** Publishes a tarball with the real `npm publish`, as the `latest` version. */
	publish(tarball: string): Promise<void>;
	close(): Promise<void>;
}

function openssl(args: string[], cwd: string) {
	const res = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
	if (res.error || res.status !== 0) {
		throw new Error(`openssl ${args[0]} failed (the installer test makes its test CA with openssl; install it): ${res.error?.message ?? res.stderr}`);
	}
}

/** A CA made for this run, and a certificate it signed for registry.npmjs.org (EC P-256, valid 1 day). */
function makeCertificates(dir: string) {
	mkdirSync(dir, { recursive: true });
	const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=n8n-nodes-marketplace-partner test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign'], dir);
	openssl(['req', ...ec, '-keyout', 'registry.key', '-out', 'registry.csr', '-subj', `/CN=${REGISTRY_HOST}`], dir);
	writeFileSync(path.join(dir, 'registry.ext'), `subjectAltName=DNS:${REGISTRY_HOST}\nextendedKeyUsage=serverAuth\n`);
	openssl(['x509', '-req', '-in', 'registry.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-out', 'registry.pem', '-extfile', 'registry.ext'], dir);
	return { caFile: path.join(dir, 'ca.pem'), key: readFileSync(path.join(dir, 'registry.key')), cert: readFileSync(path.join(dir, 'registry.pem')) };
}

type Packument = { name: string; 'dist-tags': Record<string, string>; versions: Record<string, Record<string, unknown>>; time: Record<string, string> };

const listen = (server: http.Server) =>
	new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** Starts the registry, its proxy and the test CA under `dir` (the caller removes `dir`). */
export async function startTestRegistry(dir: string): Promise<TestRegistry> {
	const { caFile, key, cert } = makeCertificates(path.join(dir, 'tls'));
	const packuments = new Map<string, Packument>();
	const tarballs = new Map<string, Buffer>();
	const requests: RegistryRequest[] = [];
	const refused: string[] = [];

	const send = (res: http.ServerResponse, status: number, body: unknown, type = 'application/json') => {
		const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
		res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-store' });
		res.end(bytes);
	};

	/** `npm publish`'s PUT: the version's manifest and its tarball, base64 in `_attachments`. */
	const acceptPublish = (name: string, body: Buffer, res: http.ServerResponse) => {
		const doc = JSON.parse(body.toString('utf8'));
		const packument: Packument = packuments.get(name) ?? { name, 'dist-tags': {}, versions: {}, time: {} };
		for (const [version, manifest] of Object.entries(doc.versions as Record<string, Record<string, unknown>>)) {
			if (packument.versions[version]) return send(res, 403, { error: `cannot publish over ${name}@${version}` });
			const file = `${name.split('/').pop()}-${version}.tgz`;
			const data = Buffer.from(doc._attachments[Object.keys(doc._attachments)[0]].data, 'base64');
			tarballs.set(`${name}/-/${file}`, data);
			// The registry, not the publisher, says where the tarball lives: on its own host.
			const dist = { ...(manifest.dist as object), tarball: `${REGISTRY_URL}/${name}/-/${file}`, shasum: createHash('sha1').update(data).digest('hex') };
			packument.versions[version] = { ...manifest, dist };
			packument.time[version] = new Date().toISOString();
		}
		Object.assign(packument['dist-tags'], doc['dist-tags']);
		packuments.set(name, packument);
		send(res, 201, { ok: true });
	};

	/** A package this registry does not hold, from the real registry (its answer passed on as it is). */
	const fromUpstream = (req: http.IncomingMessage, res: http.ServerResponse) => {
		const upstream = https.get(`${REGISTRY_URL}${new URL(req.url ?? '/', REGISTRY_URL).pathname}`, { headers: { accept: req.headers.accept ?? 'application/json', 'accept-encoding': 'identity' } }, (answer) => {
			res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/octet-stream' });
			answer.pipe(res);
		});
		upstream.on('error', (error) => send(res, 502, { error: `the real registry did not answer: ${error.message}` }));
	};

	const handle = (via: RegistryRequest['via']) => (req: http.IncomingMessage, res: http.ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const url = decodeURIComponent(new URL(req.url ?? '/', REGISTRY_URL).pathname).slice(1);
			let upstream = false;
			res.on('finish', () => requests.push({ method: req.method ?? '', path: `/${url}`, via, userAgent: String(req.headers['user-agent'] ?? ''), status: res.statusCode, upstream }));
			if (req.method === 'PUT' && via === 'publish') return acceptPublish(url, Buffer.concat(chunks), res);
			if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
			const tarball = tarballs.get(url);
			if (tarball) return send(res, 200, tarball, 'application/octet-stream');
			// "<name>" or "<name>/<version or dist-tag>" (n8n's version-exists check); names may be scoped.
			const parts = url.split('/');
			const scoped = url.startsWith('@');
			const name = parts.slice(0, scoped ? 2 : 1).join('/');
			const spec = parts[scoped ? 2 : 1];
			const packument = packuments.get(name);
			if (!packument) {
				upstream = via !== 'publish';
				return upstream ? fromUpstream(req, res) : send(res, 404, { error: 'Not found' });
			}
			if (spec === undefined) return send(res, 200, packument);
			const manifest = packument.versions[packument['dist-tags'][spec] ?? spec];
			return manifest ? send(res, 200, manifest) : send(res, 404, { error: 'version not found' });
		});
	};

	const tlsServer = https.createServer({ key, cert }, handle('tls'));
	const publishServer = http.createServer(handle('publish'));
	const forward = handle('forward');
	const proxy = http.createServer((req, res) => {
		// A plain-HTTP proxy request (absolute URL): the registry's served as a forward proxy would
		// serve it, any other host refused.
		if ((req.url ?? '').startsWith(`${REGISTRY_URL}/`)) return forward(req, res);
		refused.push(`${req.method} ${req.url}`);
		send(res, 403, { error: 'refused by the test proxy' });
	});
	const tunnels = new Set<Socket>();
	proxy.on('connect', (req: http.IncomingMessage, socket: Socket, head: Buffer) => {
		tunnels.add(socket.once('close', () => tunnels.delete(socket)));
		if (req.url !== `${REGISTRY_HOST}:443`) {
			refused.push(`CONNECT ${req.url}`);
			socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		// The tunnel ends here: TLS with the test certificate, then the registry's own handler.
		tlsServer.emit('connection', socket);
	});
	const proxyPort = await listen(proxy);
	const publishPort = await listen(publishServer);
	const proxyUrl = `http://127.0.0.1:${proxyPort}`;

	const npmDir = path.join(dir, 'npm');
	mkdirSync(npmDir, { recursive: true });
	const userConfig = path.join(npmDir, 'npmrc');
	writeFileSync(userConfig, '');
	const env = {
		HTTPS_PROXY: proxyUrl,
		https_proxy: proxyUrl,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		// n8n's own HTTP calls (the version-exists check) trust the test CA...
		NODE_EXTRA_CA_CERTS: caFile,
		// ...and so does its npm child, which trusts only it: nothing reaches the real registry.
		NPM_CONFIG_CAFILE: caFile,
		// npm's defaults as a fresh machine has them, whatever this machine's npm configuration says.
		NPM_CONFIG_REGISTRY: `${REGISTRY_URL}/`,
		NPM_CONFIG_USERCONFIG: userConfig,
		NPM_CONFIG_CACHE: path.join(npmDir, 'cache'),
		NPM_CONFIG_UPDATE_NOTIFIER: 'false',
	};

	const npmrc = [
		`registry=${env.NPM_CONFIG_REGISTRY}`,
		`https-proxy=${proxyUrl}`,
		`noproxy=${env.NO_PROXY}`,
		`cafile=${caFile}`,
		`cache=${env.NPM_CONFIG_CACHE}`,
		'update-notifier=false',
	].join('\n');

	return {
		env,
		prepareUserFolder(userFolder: string) {
			if (N8N_MAJOR >= 2 && N8N_LINE !== '2.0') return;
			const nodesDir = path.join(userFolder, '.n8n', 'nodes');
			mkdirSync(nodesDir, { recursive: true });
			writeFileSync(path.join(nodesDir, '.npmrc'), npmrc);
		},
		requests,
		refused,
		// Asynchronous: the registry answering npm runs in this same process.
		publish: (tarball: string) =>
			new Promise<void>((resolve, reject) => {
				const registry = `http://127.0.0.1:${publishPort}/`;
				const args = ['publish', tarball, `--registry=${registry}`, `--//127.0.0.1:${publishPort}/:_authToken=test-publisher`, '--tag=latest', '--ignore-scripts', '--provenance=false'];
				const npmEnv = cleanEnv({ NPM_CONFIG_USERCONFIG: userConfig, NPM_CONFIG_CACHE: env.NPM_CONFIG_CACHE });
				execFile('npm', args, { env: npmEnv }, (error, _stdout, stderr) => (error ? reject(new Error(`npm publish ${tarball} failed: ${stderr}`)) : resolve()));
			}),
		close: () => {
			for (const socket of tunnels) socket.destroy();
			return Promise.all(
				[proxy, publishServer, tlsServer].map(
					(server) =>
						new Promise<void>((resolve) => {
							server.closeAllConnections?.();
							server.close(() => resolve());
						}),
				),
			).then(() => undefined);
		},
	};
}

/**
 * A newer build of a packed package, as a release would bring: the same files under the next
 * patch version (`<x.y.z+1>-test.<n>`), and the action node's codex naming that version among its
 * aliases, so that a test can see which build the running n8n has loaded.
 */
export function newerBuild(tarball: string, dir: string, n = 1): { tarball: string; version: string } {
	mkdirSync(dir, { recursive: true });
	const run = (command: string, args: string[], cwd: string) => {
		const res = spawnSync(command, args, { cwd, encoding: 'utf8', env: cleanEnv() });
		if (res.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${res.stderr}`);
		return res.stdout;
	};
	run('tar', ['-xzf', tarball, '-C', dir], dir);
	const root = path.join(dir, 'package');
	const manifestFile = path.join(root, 'package.json');
	const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
	const [major, minor, patch] = String(manifest.version).split(/[.-]/).map(Number);
	const version = `${major}.${minor}.${patch + 1}-test.${n}`;
	writeFileSync(manifestFile, JSON.stringify({ ...manifest, version }, null, 2));
	const codexFile = path.join(root, 'dist/nodes/MarketplacePartner/MarketplacePartner.node.json');
	const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
	writeFileSync(codexFile, JSON.stringify({ ...codex, alias: [...codex.alias, buildAlias(version)] }, null, '\t'));
	const packed = JSON.parse(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], root));
	return { tarball: path.join(dir, packed[0].filename), version };
}

/** The codex alias that names a build made by newerBuild. */
export const buildAlias = (version: string) => `build ${version}`;
