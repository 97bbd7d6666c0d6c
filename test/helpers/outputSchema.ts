/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// The output schema n8n serves for a node (n8n-core's own path resolution, as GET /schemas/… does),
// and a check that a real item fits it: every field typed as the schema says, none the schema lacks.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveOutputSchemaPath } from 'n8n-core';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; enum?: unknown[] };

/** The schema file n8n resolves for a node without resource or operation, from its folder (from the repository's root). */
export function outputSchemaFile(nodeDir: string, version = 1): string | undefined {
	const file = resolveOutputSchemaPath({ nodeDir: path.resolve(__dirname, '../..', nodeDir), version });
	return file && existsSync(file) ? file : undefined;
}

export function readSchema(file: string): Schema {
	return JSON.parse(readFileSync(file, 'utf8')) as Schema;
}

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

/** Where `value` departs from `schema`, as paths; [] when it fits. */
export function schemaMismatches(value: unknown, schema: Schema, at = '$'): string[] {
	const type = typeOf(value);
	// A type or a list of them (["integer", "null"]): an integer is a number too.
	const allowed = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type);
	if (allowed && !allowed.includes(type) && !(allowed.includes('number') && type === 'integer')) return [`${at}: ${type}, not ${allowed.join(' or ')}`];
	if (schema.enum && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} not in the schema's values`];
	if (type !== 'object' || !schema.properties) return [];
	const object = value as Record<string, unknown>;
	return [
		...(schema.required ?? []).filter((key) => !(key in object)).map((key) => `${at}.${key}: missing`),
		...Object.entries(object).flatMap(([key, field]) =>
			schema.properties![key] ? schemaMismatches(field, schema.properties![key], `${at}.${key}`) : [`${at}.${key}: not in the schema`],
		),
	];
}
