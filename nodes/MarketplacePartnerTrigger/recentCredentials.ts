// A webhook request has no run, so n8n reads its credential through a workflow of its own and, on
// n8n 2.x's default expression engine, builds an expression isolate for that read alone
// (CredentialsHelper.applyDefaultsAndOverwrites in n8n 2.41): on top of the isolate n8n already
// holds for the request, the largest cost of a delivery (docs/benchmarks.md). So the trigger reuses
// a credential it read a moment ago; a delivery the reused one refuses, where an edit could have let
// it in, is checked again with a fresh read, so a new secret or Header Prefix counts from its first
// delivery, and a secret taken out of the credential stops verifying within REUSE_MS. Fresh reads
// are at most one per REFRESH_MS: junk that looks signed then costs one read a second, not one each.

/** How long a credential read for one trigger is reused. */
export const CREDENTIAL_REUSE_MS = 5_000;
/** How often a trigger's held credential may be read afresh. */
export const CREDENTIAL_REFRESH_MS = 1_000;

/** Credentials read recently, one per trigger (workflow, node and credential), never older than reuseMs. */
export class RecentCredentials<T> {
	private readonly entries = new Map<string, { readAtMs: number; refreshedAtMs: number; value: T }>();

	constructor(
		private readonly reuseMs = CREDENTIAL_REUSE_MS,
		private readonly refreshMs = CREDENTIAL_REFRESH_MS,
	) {}

	/**
	 * What `read` gave for `key` within the last reuseMs, else a new read, kept. `fresh` asks for a
	 * new read even so, granted unless another was granted within the last refreshMs.
	 */
	async get(key: string, read: () => Promise<T>, nowMs: number, fresh = false): Promise<{ value: T; reused: boolean }> {
		const entry = this.entries.get(key);
		const reuse = !fresh || (entry !== undefined && nowMs - entry.refreshedAtMs < this.refreshMs);
		if (entry && nowMs - entry.readAtMs < this.reuseMs && reuse) return { value: entry.value, reused: true };
		// Nothing outlives its time here: a secret no longer used leaves this process's memory too.
		for (const [other, { readAtMs }] of this.entries) if (nowMs - readAtMs >= this.reuseMs) this.entries.delete(other);
		const value = await read();
		this.entries.set(key, { readAtMs: nowMs, refreshedAtMs: fresh ? nowMs : (entry?.refreshedAtMs ?? -Infinity), value });
		return { value, reused: false };
	}

	/** How many credentials this process holds now. */
	get size(): number {
		return this.entries.size;
	}
}
