// Delivery ids seen recently, per workflow and node, so a re-sent delivery starts no second run.
// In memory of this n8n process: bounded in time and in count.
const WINDOW_MS = 24 * 60 * 60 * 1000;
const MAX_IDS_PER_KEY = 10_000;

export class DeliveryLog {
	private readonly seen = new Map<string, Map<string, number>>();

	/** Records the id; true when it was already recorded within the window. */
	seenBefore(key: string, deliveryId: string, nowMs: number): boolean {
		let ids = this.seen.get(key);
		if (!ids) this.seen.set(key, (ids = new Map()));
		for (const [id, at] of ids) {
			if (nowMs - at < WINDOW_MS && ids.size <= MAX_IDS_PER_KEY) break; // oldest first
			ids.delete(id);
		}
		const at = ids.get(deliveryId);
		if (at !== undefined && nowMs - at < WINDOW_MS) return true;
		ids.set(deliveryId, nowMs);
		return false;
	}
}
