// As a tool, Maximum Products per Run: the products one model run (a chat answer, an MCP session)
// has changed, counted in this process across its calls.
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { toWholeNumber } from '../../../shared/helpers/values';
import { modelRunOf } from '../tool';

/** Model runs whose tool changes are counted (runs, MCP sessions, hours; `modelRunOf`), in this process. */
const MAX_RUNS_COUNTED = 100;
const changedByRun = new Map<string, Set<string>>();

/** As a tool: the products this model run may still change (Maximum Products per Run), counted across its calls. */
export function productBudget(context: IExecuteFunctions): { take(target: string): void } {
	let max: number;
	try {
		max = toWholeNumber(context.getNodeParameter('toolMaxProducts', 0, 10), 'Maximum Products per Run', { min: 1 }) as number;
	} catch (error) {
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
	const run = modelRunOf(context, Date.now());
	let changed = changedByRun.get(run.key);
	if (!changed) {
		changed = new Set();
		changedByRun.set(run.key, changed);
		// Oldest first: a run counted 100 runs ago has long ended.
		if (changedByRun.size > MAX_RUNS_COUNTED) changedByRun.delete(changedByRun.keys().next().value!);
	}
	const counted = changed;
	return {
		take(target) {
			if (counted.has(target)) return;
			if (counted.size >= max) {
				// Its own description: "fix the value and run it again" would not be true here.
				throw new NodeOperationError(
					context.getNode(),
					`This workflow lets a model change at most ${max} products ${run.scope}, and ${counted.size} were changed already, so nothing was sent. Tell the person; ${run.next}.`,
					{ description: 'The limit keeps a model from changing many products at once; only a person can change it, in the workflow.' },
				);
			}
			counted.add(target);
		},
	};
}
