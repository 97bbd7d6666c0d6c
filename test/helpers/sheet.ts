// As a spreadsheet reads a CSV file (RFC 4180): one optional byte order mark at the very start,
// quoted fields may hold commas, quotes and line breaks. Anything else (a second mark, a header
// glued to a row) shows up as a wrong header or a row of the wrong width.
export function readSheet(text: string): { bomAtStart: boolean; header: string[]; rows: Array<Record<string, string>> } {
	const bomAtStart = text.startsWith('\uFEFF');
	const body = bomAtStart ? text.slice(1) : text;
	const records: string[][] = [[]];
	let field = '';
	let quoted = false;
	for (let i = 0; i < body.length; i++) {
		const c = body[i];
		if (quoted) {
			if (c === '"' && body[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			records.at(-1)!.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && body[i + 1] === '\n') i++;
			records.at(-1)!.push(field);
			field = '';
			records.push([]);
		} else field += c;
	}
	records.at(-1)!.push(field);
	const [header, ...rest] = records.filter((r) => !(r.length === 1 && r[0] === ''));
	for (const r of rest) if (r.length !== header.length) throw new Error(`A row of ${r.length} fields under a header of ${header.length}: ${JSON.stringify(r)}`);
	return { bomAtStart, header, rows: rest.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]]))) };
}
