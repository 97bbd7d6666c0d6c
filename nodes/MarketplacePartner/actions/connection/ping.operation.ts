import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { forEachItem } from '../../../shared/helpers/items';
import { apiRequest } from '../../../shared/transport';
import { giveUpAfterOption, optionsCollection } from '../../../shared/runOptions';

const displayOptions = { show: { resource: ['connection'], operation: ['ping'] } };

// Version 4: no options; a ping gives up after the default Give Up After.
export const description = updateDisplayOptions(displayOptions, updateDisplayOptions({ show: { '@version': [1, 2, 3] } }, [optionsCollection(giveUpAfterOption)]));

// Stryker disable all: n8n UI description (what a model reads about Connection › Ping used as a tool)
export const toolDescription =
	'Check that the marketplace credential signs requests the Partner API accepts (GET /ping.php). Takes no arguments.';
// Stryker restore all

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const data = await apiRequest.call(this, 'GET', '/ping.php', { itemIndex: i });
		return [{ json: data, pairedItem: { item: i } }];
	});
}
