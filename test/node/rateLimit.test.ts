// Stock › Update against the sandbox's token-bucket rate limit, in n8n's engine over loopback: every
// row ends applied exactly at its value (the sandbox's state is the witness), with and without
// Retry-After; and a limit the run cannot outwait within Give Up After ends with a clear error, or,
// with Continue On Fail, with every row a result, an error, or "not sent".
import { credentialsFor, runNode } from '../helpers/n8n';
import { startSandbox, type RunningSandbox } from '../helpers/sandbox';
import { soakSize } from '../helpers/soak';

type Target = { product_id: number; variant: number | '' };
type Product = { product_id: number; stock: number | null; variant_combination_ids: number[]; variants: Array<{ variant_combination_id: number; stock: number }> };

// 8 s of requests at the limit each run in the soak run, 1.5 s in `npm test`.
const ROWS = soakSize(75, 400);
const sheet = {
	resource: 'stock',
	operation: 'update',
	productId: '={{ $json.product_id }}',
	stock: '={{ $json.stock }}',
	additionalFields: { variantCombinationId: '={{ $json.variant }}' },
};

describe('Stock › Update under a rate limit', () => {
	let sb: RunningSandbox;
	let targets: Target[];
	const credentials = () => credentialsFor(sb.baseUrl, sb.apps['seller-a-full']);

	beforeAll(async () => {
		sb = await startSandbox({ products: ROWS });
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		targets = products.flatMap((p): Target[] =>
			p.variant_combination_ids.length ? p.variant_combination_ids.map((variant) => ({ product_id: p.product_id, variant })) : [{ product_id: p.product_id, variant: '' }],
		);
	});
	beforeEach(async () => {
		await sb.control('POST', '/stats/reset');
	});
	afterAll(() => sb.close());

	/** Every product and variant of seller A, as the sandbox holds them now. */
	async function stocks(): Promise<Map<string, number | null>> {
		const products: Product[] = await sb.control('GET', '/products?sellerId=1001');
		const byTarget = new Map<string, number | null>();
		for (const p of products) {
			byTarget.set(`${p.product_id}/`, p.stock);
			for (const v of p.variants) byTarget.set(`${p.product_id}/${v.variant_combination_id}`, v.stock);
		}
		return byTarget;
	}

	test.each([
		['with Retry-After', true],
		['without Retry-After', false],
	])('50 requests/s, bursts of 10, %s: every row applied exactly at its value, once', async (_, retryAfter) => {
		await sb.control('POST', '/rate-limit', { rate: 50, burst: 10, retryAfter });
		const seed = retryAfter ? 1000 : 5000;
		const rows = targets.slice(0, ROWS).map((t, i) => ({ ...t, stock: seed + i }));
		const { items, error } = await runNode({ parameters: sheet, items: rows, credentials: credentials() });
		const stats = await sb.control('GET', '/stats');
		await sb.control('POST', '/rate-limit', { rate: 0 });
		expect(error).toBeUndefined();
		expect(items.map((i) => i.json.new_stock)).toEqual(rows.map((r) => r.stock));
		const now = await stocks();
		expect(rows.filter((r) => now.get(`${r.product_id}/${r.variant}`) !== r.stock)).toEqual([]);
		// The limit really bit and each row was applied exactly once. (How few refusals and how close
		// to the limit the run gets depends on the machine's load: bench/rateLimit.ts measures it.)
		expect(stats.byCode.rate_limited).toBeGreaterThan(0);
		expect(stats.byEndpoint['POST /stock_update.php 200']).toBe(ROWS);
	}, 120_000);

	describe('a limit the run cannot outwait', () => {
		const rows = () => targets.filter((t) => t.variant === '').slice(0, 20).map((t) => ({ ...t, stock: 4242 }));

		test('without Continue On Fail: a clear error that counts the rows; only the row the limit let through is applied', async () => {
			// One request, then one every 100 s, never said: nothing more succeeds within Give Up After.
			await sb.control('POST', '/rate-limit', { rate: 0.01, burst: 1, retryAfter: false });
			const sheetRows = rows();
			const started = Date.now();
			const { error } = await runNode({ parameters: { ...sheet, options: { giveUpAfter: 2 } }, items: sheetRows, credentials: credentials() });
			const stats = await sb.control('GET', '/stats');
			await sb.control('POST', '/rate-limit', { rate: 0 });
			expect(error?.message).toBe('The Partner API is rate limiting this app');
			expect(error?.description).toMatch(/Nothing in this run succeeded for 2 s \(option Give Up After\), so the node gave up; the last attempt got HTTP 429 \(rate_limited\)\./);
			expect(error?.description).toMatch(/Row \d+ \(item \d+\) failed, of 20 rows; 1 row was applied, the other 19 not\. .*running the whole sheet again is safe/);
			expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
			expect(stats.byEndpoint['POST /stock_update.php 200']).toBe(1);
			// Paused together: far fewer attempts than rows times retries.
			expect(stats.byCode.rate_limited).toBeLessThan(2 * sheetRows.length);
		});

		test('with Continue On Fail: one result, the rows tried are rate-limit errors, the others "not sent"; the sandbox agrees', async () => {
			await sb.control('POST', '/rate-limit', { rate: 0.01, burst: 1, retryAfter: false });
			const sheetRows = rows().map((r, i) => ({ ...r, stock: 7000 + i }));
			const before = await stocks();
			const { items, error } = await runNode({
				parameters: { ...sheet, options: { giveUpAfter: 2, concurrency: 4 } },
				items: sheetRows,
				credentials: credentials(),
				continueOnFail: true,
			});
			await sb.control('POST', '/rate-limit', { rate: 0 });
			expect(error).toBeUndefined();
			expect(items).toHaveLength(sheetRows.length);
			expect(items.map((i) => i.pairedItem)).toEqual(sheetRows.map((_, i) => ({ item: i })));
			const applied = items.filter((i) => i.json.new_stock !== undefined);
			const limited = items.filter((i) => i.json.error === 'The Partner API is rate limiting this app');
			const notSent = items.filter((i) => (i.json.details as { notSent?: boolean } | undefined)?.notSent === true);
			expect(applied).toHaveLength(1);
			expect(limited.length).toBeGreaterThan(0);
			expect(notSent.length).toBeGreaterThan(0);
			expect(applied.length + limited.length + notSent.length).toBe(sheetRows.length);
			expect((limited[0].json.details as { description: string; httpCode: string })).toMatchObject({ httpCode: '429' });
			expect((notSent[0].json.details as { description: string }).description).toMatch(/Nothing in this run succeeded for 2 s/);
			// Never sent: no API code or status, not even as undefined keys.
			expect(Object.keys(notSent[0].json.details as object)).toEqual(['description', 'notSent', 'itemIndex']);
			expect(notSent[0].json.error).toBe('Not sent: the node stopped before sending this request');
			// The witness: the one applied row is at its value; every other row is untouched.
			const after = await stocks();
			for (const [i, row] of sheetRows.entries()) {
				const key = `${row.product_id}/`;
				expect(after.get(key)).toBe(items[i].json.new_stock !== undefined ? row.stock : before.get(key));
			}
		});

		test('a Retry-After longer than Give Up After stops the run at once and says so', async () => {
			await sb.control('POST', '/rate-limit', { rate: 0.01, burst: 1, retryAfter: true });
			const started = Date.now();
			const { error } = await runNode({ parameters: { ...sheet, options: { giveUpAfter: 5 } }, items: rows(), credentials: credentials() });
			await sb.control('POST', '/rate-limit', { rate: 0 });
			expect(error?.message).toBe('The Partner API is rate limiting this app');
			expect(error?.description).toMatch(/asked to wait 100 s \(Retry-After\), longer than the node may wait without progress \(Give Up After: 5 s\)/);
			expect(Date.now() - started).toBeLessThan(5000);
		});
	});
});
