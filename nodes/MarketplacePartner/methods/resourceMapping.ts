import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';
import { resourceMapperFields, type IdentifyBy } from '../actions/stock/stockColumns';

/** Stock › Update's columns: the product's identifier as chosen, then stock, variant, reference. */
export async function getStockColumns(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
	const identifyBy = this.getNodeParameter('identifyBy', 'productId') as IdentifyBy;
	return { fields: resourceMapperFields(identifyBy) };
}
