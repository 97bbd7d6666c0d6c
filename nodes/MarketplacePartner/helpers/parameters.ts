// Reading node parameters item by item costs an expression evaluation each time. A parameter whose
// raw value holds no expression (no string starting with "=") is the same for every item, so it
// is read once per run instead.
import type { IDataObject, IExecuteFunctions, NodeParameterValueType } from 'n8n-workflow';

/** `name` may be a path into a parameter, as n8n reads them: "columns.value". */
export function parameterReader<T extends NodeParameterValueType | object>(
	context: IExecuteFunctions,
	name: string,
	fallback: T,
): (itemIndex: number) => T {
	const raw = name.split('.').reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], context.getNode().parameters);
	const hasExpression = JSON.stringify(raw ?? null).includes('"=');
	if (hasExpression) return (itemIndex) => context.getNodeParameter(name, itemIndex, fallback) as T;
	let constant: { value: T } | undefined;
	return (itemIndex) => (constant ??= { value: context.getNodeParameter(name, itemIndex, fallback) as T }).value;
}
