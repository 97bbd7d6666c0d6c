// Finding a field's column in an input item by its name, as a spreadsheet writes it: "Product ID",
// "product-id", "productId" and "PRODUCT_ID" are all the column product_id. Read from the item
// itself, with no expression per row.
import type { IDataObject } from 'n8n-workflow';
import { cut } from '../../shared/helpers/networkText';

/** A header reduced to its letters and digits, lower case: the form header variants share. */
export function headerKey(header: string): string {
	return header.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The column of `json` that holds a field known by `names`: a name written exactly wins; otherwise
 * the one column whose header reads as one of them. Undefined when there is none; an error when
 * several columns read as the field, since picking one would be a guess.
 */
export function columnFinder(names: string[]): (json: IDataObject) => string | undefined {
	const accepted = new Set(names.map(headerKey));
	// Sheets repeat their headers on every row: each header is reduced once per run.
	const keys = new Map<string, string>();
	const keyOf = (header: string) => {
		let key = keys.get(header);
		if (key === undefined) keys.set(header, (key = headerKey(header)));
		return key;
	};
	return (json) => {
		for (const name of names) if (Object.hasOwn(json, name)) return name;
		const matches = Object.keys(json).filter((header) => accepted.has(keyOf(header)));
		if (matches.length > 1) {
			throw new Error(`The columns ${cut(matches.map((m) => `"${m}"`).join(' and '), 500)} all read as ${names[0]}; keep one of them, or name the one to use under Column Names.`);
		}
		return matches[0];
	};
}
