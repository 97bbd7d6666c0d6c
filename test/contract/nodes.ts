/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// This package's node types as n8n registers them, and where their recorded contract lives.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeType } from 'n8n-workflow';
import { nodeTypesOf } from './parameters';

/** The committed contract: written only by `npm run contract:update`. */
export const CONTRACT_FILE = path.join(__dirname, 'parameters.json');

const PACKAGE: string = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).name;

/** The node types of these nodes (and their tool variants) by the names saved workflows use. */
export function packageNodeTypes(nodes: INodeType[]) {
	return nodeTypesOf(PACKAGE, nodes.map((node) => node.description));
}
