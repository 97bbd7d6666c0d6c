// Runs `task` over `count` indices with at most `limit` in flight; results keep index order.
export async function mapWithConcurrency<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
	return results;
}
