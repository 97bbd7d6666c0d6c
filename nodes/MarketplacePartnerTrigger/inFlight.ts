// This process's own claims on the deliveries it is starting runs for: what the shared record
// (deliveryLog.ts) cannot hold, as n8n saves it only after the answer.
const IN_FLIGHT_MS = 60_000;

/**
 * Deliveries this process has accepted and n8n has not queued yet. A copy that arrives meanwhile is
 * neither run a second time nor dropped for a run that may still fail to start: it is told to come
 * back later. A claim lapses after a minute (a run n8n never queued leaves it behind).
 */
export class InFlight {
	private readonly until = new Map<string, number>(); // key -> when its claim lapses (ms), oldest first

	/** Claims every key; false, claiming nothing, when one of them is claimed already. */
	claim(keys: string[], nowMs: number): boolean {
		for (const [key, until] of this.until) {
			if (until > nowMs) break;
			this.until.delete(key);
		}
		if (keys.some((key) => this.until.has(key))) return false;
		for (const key of keys) this.until.set(key, nowMs + IN_FLIGHT_MS);
		return true;
	}

	release(keys: string[]): void {
		for (const key of keys) this.until.delete(key);
	}
}
