// @ts-check
// `npm run test:mutation`: StrykerJS over the security and data core (issue 17). Survivors and why
// they stay: SURVIVORS.md next to this file. How to run and regenerate: README > Tests.
import os from 'node:os';
import path from 'node:path';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'test/mutation/jest.config.js',
		// jest's findRelatedTests does not link transport/ and actions/ to the tests that reach them
		// through n8n-core: their mutants would run no test and count as survived (testsCompleted: 0).
		enableFindRelatedTests: false,
	},
	// Each mutant runs only the tests that execute it (and test/mutation/sequencer.js loads only
	// their files).
	coverageAnalysis: 'perTest',
	mutate: [
		'credentials/*.ts',
		// What the nodes and the credential share: transport (HTTP, signing, errors, retries) and helpers.
		'nodes/shared/**/*.ts',
		'nodes/MarketplacePartner/helpers/**/*.ts',
		// The editor's lists (order items, statuses) and the stock columns the mapper offers.
		'nodes/MarketplacePartner/methods/**/*.ts',
		// Every operation and what runs them; the *.resource.ts files only list descriptions.
		'nodes/MarketplacePartner/actions/**/*.ts',
		'!nodes/MarketplacePartner/actions/**/*.resource.ts',
		// The webhook trigger (its signature checks and delivery record) and the polling trigger.
		'nodes/MarketplacePartnerTrigger/*.ts',
		'nodes/MarketplacePartnerOrdersTrigger/*.node.ts',
		// The sandbox's request and webhook signing and its data rules, also once split into modules.
		'sandbox/auth.js',
		'sandbox/api/authentication.js',
		'sandbox/data.js',
		// The apps' secrets a sandbox is given (per run, or from npm start's file) and their checks.
		'sandbox/secrets.js',
		// The stock rules by id or by SKU, and the rate limit a client can be held to.
		'sandbox/api/stockUpdate.js',
		'sandbox/rateLimit.js',
	],
	// n8n UI descriptions are left out by `// Stryker disable all` comments where they are written.
	//
	// Static mutants (in code that runs once, when a module loads: description objects, lookup
	// tables) cannot be told apart per test, so each one reruns every test file: about 3 minutes
	// each on 2 cores, which made them 88 % of a run's time. They are left out; the behaviour those
	// tables hold (statuses retried, codes explained, answers to refused webhooks) is asserted by
	// the tests all the same, and SURVIVORS.md lists them.
	ignoreStatic: true,
	// CI reruns only mutants whose code or covering tests changed since this file was written.
	incremental: true,
	// run.mjs passes the unpacked cache (cache.mjs) as --incrementalFile.
	incrementalFile: 'reports/mutation/incremental.json',
	ignorePatterns: ['.state', 'dist', 'docs', 'coverage', 'reports', 'bench/results'],
	// live-survivors.mjs: survivors as they are found (reports/mutation/survivors.jsonl);
	// checkpoint.mjs: the results so far, every minute, so a long run that stops can be resumed.
	appendPlugins: ['./test/mutation/live-survivors.mjs', './test/mutation/checkpoint.mjs'],
	reporters: ['clear-text', 'progress', 'html', 'json', 'live-survivors', 'checkpoint'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	thresholds: { high: 95, low: 90, break: 90 },
	// 2 cores; the tests wait on loopback HTTP and clocks as much as they compute, so a third runner
	// shortens a CI run that has many mutants to retest (a time-out it causes counts as killed, see
	// SURVIVORS.md).
	concurrency: 3,
	// A jest worker grows by loading n8n-core afresh for every test file it runs (3-4 GB after an
	// hour); a new one every 50 mutants keeps seven of them within 24 GB.
	maxTestRunnerReuse: 50,
	// The tests talk HTTP over loopback and wait out Retry-After: more room than the default 5 s.
	timeoutMS: 10000,
	// The initial run of every test (about 1,000 since the answer styles) takes 3-4 minutes on an
	// idle 2-core machine and several times that on a shared one; Stryker's default gives it 5.
	dryRunTimeoutMinutes: 30,
	// Outside the project: a run stopped half-way (Ctrl-C, a time limit) leaves its copy of the
	// project behind, and inside it n8n-node lint (eslint .) would lint that copy too.
	tempDirName: path.join(os.tmpdir(), 'stryker-marketplace-partner'),
	cleanTempDir: 'always',
};
