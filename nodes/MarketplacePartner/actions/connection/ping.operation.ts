import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { forEachItem } from '../../helpers/items';
import { apiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await forEachItem.call(this, async (i) => {
		const data = await apiRequest.call(this, 'GET', '/ping.php', { itemIndex: i });
		return [{ json: data, pairedItem: { item: i } }];
	});
}
