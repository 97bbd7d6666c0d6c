// The options every operation shares: how long a run waits for the API to make progress, and (for
// operations that send many requests at once) how many requests it keeps in flight.
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { toWholeNumber } from './helpers/values';
import { DEFAULT_GIVE_UP_AFTER_SEC, type RunOptions } from './transport/runPolicy';

/**
 * Requests in flight unless the Concurrency option says otherwise. n8n's HTTP helper opens a new
 * connection for every request, so each one spends most of its time waiting on the network; with
 * 8 in flight a 5,000-row sheet in a real n8n took 1.5–1.7 times as long as with 32 (README, Choosing Concurrency).
 * Under a rate limit the run paces itself, whatever this is.
 */
export const DEFAULT_CONCURRENCY = 32;

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
export const giveUpAfterOption: INodeProperties = {
	displayName: 'Give Up After (Seconds)',
	name: 'giveUpAfter',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: DEFAULT_GIVE_UP_AFTER_SEC,
	description:
		'How long the run keeps retrying passing failures (rate limits, 502/503/504, time-outs) while no request succeeds. A 500 is retried at most 3 times.',
};
// Stryker restore all

// Stryker disable all: n8n UI description (labels, help texts, option lists) for the editor; see test/mutation/SURVIVORS.md
export const concurrencyOption: INodeProperties = {
	displayName: 'Concurrency',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 32 },
	default: DEFAULT_CONCURRENCY,
	description:
		'The most requests in flight at once. Under a rate limit the node paces itself, so you need not lower it.',
};
// Stryker restore all

/** An Options collection holding the given options (sorted by name, as n8n lists them). */
export function optionsCollection(...options: INodeProperties[]): INodeProperties {
	// Stryker disable next-line all: n8n UI description (the Options collection's label and placeholder)
	return { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options };
}

export function readRunOptions(context: IExecuteFunctions): RunOptions {
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	try {
		return {
			giveUpAfterMs: (toWholeNumber(options.giveUpAfter ?? DEFAULT_GIVE_UP_AFTER_SEC, 'Give Up After', { min: 1 }) as number) * 1000,
			concurrency: toWholeNumber(options.concurrency ?? DEFAULT_CONCURRENCY, 'Concurrency', { min: 1 }) as number,
		};
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}
