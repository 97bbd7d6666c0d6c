import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { forEachItem } from '../../helpers/items';
import { apiRequest } from '../../transport';
import { giveUpAfterOption, optionsCollection } from '../runOptions';

const displayOptions = { show: { resource: ['connection'], operation: ['ping'] } };

export const description = updateDisplayOptions(displayOptions, [optionsCollection(giveUpAfterOption)]);

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const data = await apiRequest.call(this, 'GET', '/ping.php', { itemIndex: i });
		return [{ json: data, pairedItem: { item: i } }];
	});
}
