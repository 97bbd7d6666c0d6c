import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { errorItem, toNodeError } from '../../helpers/items';
import { apiRequest } from '../../transport';

export const description: INodeProperties[] = [];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const returnData: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const data = await apiRequest.call(this, 'GET', '/ping.php', { itemIndex: i });
			returnData.push({ json: data, pairedItem: { item: i } });
		} catch (error) {
			const nodeError = toNodeError.call(this, error, i);
			if (!this.continueOnFail()) throw nodeError;
			returnData.push(errorItem(nodeError, i));
		}
	}
	return returnData;
}
