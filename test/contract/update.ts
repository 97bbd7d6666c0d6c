/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @typescript-eslint/no-require-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// `npm run contract:update`: records the built nodes' parameters (the files package.json's n8n block
// names, as n8n loads them) in test/contract/parameters.json, the contract of the released versions
// (RELEASING.md). It refuses a change that breaks a recorded version unless
// `-- --accept-breaking` says that version was never released.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { additions, breakingChanges, contractOf, type Contract } from './parameters';
import { CONTRACT_FILE, packageNodeTypes } from './nodes';

const root = path.join(__dirname, '../..');
const files: string[] = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).n8n.nodes;
// n8n takes the class name from the file name (Foo.node.js exports Foo).
const types = packageNodeTypes(files.map((file) => new (require(path.join(root, file))[path.basename(file).split('.')[0]])()));
const recorded: Contract = existsSync(CONTRACT_FILE) ? JSON.parse(readFileSync(CONTRACT_FILE, 'utf8')) : {};
const breaking = breakingChanges(recorded, types);
if (breaking.length && !process.argv.includes('--accept-breaking')) {
	process.stderr.write(`Not recorded: these changes break saved workflows of a recorded version:\n- ${breaking.join('\n- ')}\n`);
	process.stderr.write('If that version was never released, run `npm run contract:update -- --accept-breaking`.\n');
	process.exit(1);
}
const current = contractOf(types);
const added = additions(recorded, current);
writeFileSync(CONTRACT_FILE, `${JSON.stringify(current, null, '\t')}\n`);
process.stdout.write(`Recorded ${path.relative(root, CONTRACT_FILE)}: ${added.length} addition(s)${added.length ? `\n- ${added.join('\n- ')}` : ''}${breaking.length ? `\n${breaking.length} breaking change(s) accepted` : ''}\n`);
