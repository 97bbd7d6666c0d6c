/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code: runs in Node.js, never inside n8n; n8n-node lint applies its node rules to every .ts file */
// Runs the Orders Trigger's poll() the way n8n does: n8n-core's PollTriggerExecutor around a
// PollContext (mode "trigger"), activation first, and static data that persists like n8n's:
// kept in memory between polls, saved when a poll emits and after a successful activation (n8n's
// ActiveWorkflowManager.add saves the workflow's static data once its triggers are added, the
// activation poll included), and rolled back to the last save when n8n restarts.
import path from 'node:path';
import { PollContext, PollTriggerExecutor } from 'n8n-core';
import type { ICredentialDataDecryptedObject, IDataObject, INode, INodeExecutionData, INodeType, WorkflowActivateMode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartnerOrdersTrigger/MarketplacePartnerOrdersTrigger.node';
import { createAdditionalData, PACKAGE } from './n8n';

// n8n resolves its poll executor from n8n-core's dependency container: n8n-core's own copy of @n8n/di.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require(require.resolve('@n8n/di', { paths: [path.dirname(require.resolve('n8n-core'))] }));

export const ORDERS_TRIGGER_TYPE = `${PACKAGE}.marketplacePartnerOrdersTrigger`;

export interface PollOutcome {
	items: IDataObject[] | null;
	error?: Error;
}

export class PollHarness {
	readonly node: INode;
	/** Static data as n8n's database holds it: written on emit and after activation only. */
	saved: IDataObject = {};
	workflow!: Workflow;
	/** Every item emitted, in order, across restarts. */
	readonly emitted: IDataObject[] = [];
	private readonly additionalData;

	constructor(
		parameters: IDataObject,
		credentials: ICredentialDataDecryptedObject,
		// The benchmark passes the built class (dist/), the tests the sources.
		readonly trigger: INodeType & Pick<MarketplacePartnerOrdersTrigger, 'poll'> = new MarketplacePartnerOrdersTrigger(),
		private readonly workflowId = `wf-poll-${Math.random().toString(36).slice(2)}`,
		typeVersion = 1,
	) {
		this.node = {
			id: 'orders-trigger-1',
			name: 'Marketplace Partner Orders Trigger',
			type: ORDERS_TRIGGER_TYPE,
			typeVersion,
			position: [0, 0],
			parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters } as INode['parameters'],
			credentials: { marketplacePartnerApi: { id: '1', name: 'Partner test' } },
		};
		// Held, not copied: a test can edit the credential between polls, as a user edits it in n8n.
		this.additionalData = createAdditionalData({ marketplacePartnerApi: credentials });
		this.load();
	}

	/** The workflow as n8n loads it from its database: static data from the last save. */
	private load() {
		const trigger = this.trigger;
		const nodeTypes = { getByName: () => trigger, getByNameAndVersion: () => trigger, getKnownTypes: () => ({}) };
		this.workflow = new Workflow({
			id: this.workflowId,
			name: 'poll test',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: structuredClone(this.saved),
		});
	}

	/** The poll node's static data as it is in memory now. */
	get state(): IDataObject {
		return this.workflow.getStaticData('node', this.node);
	}

	/**
	 * n8n makes one poll context per activation and runs every poll of it through that context
	 * (n8n-core's ActiveWorkflowTriggers.activatePollTrigger): so does this harness.
	 */
	private activation?: { context: PollContext; outcome: PollOutcome };

	private async run(activation: WorkflowActivateMode, testing: boolean): Promise<PollOutcome> {
		if (testing || !this.activation) {
			const outcome: PollOutcome = { items: null };
			const context = new PollContext(
				this.workflow,
				this.node,
				this.additionalData,
				'trigger',
				activation,
				(data: INodeExecutionData[][]) => {
					// n8n's __emit saves the workflow's static data, then starts the execution.
					this.saved = JSON.parse(JSON.stringify(this.workflow.staticData));
					outcome.items = data[0].map((i) => i.json);
					this.emitted.push(...outcome.items);
				},
				(e: Error) => {
					outcome.error = e;
				},
			);
			this.activation = { context, outcome };
		}
		const { context, outcome } = this.activation;
		outcome.items = null;
		delete outcome.error;
		const execute = Container.get(PollTriggerExecutor).create(this.workflow, this.node, context, () => true);
		try {
			await execute(testing);
		} catch (e) {
			outcome.error = e as Error;
		}
		return { items: outcome.items, error: outcome.error };
	}

	/** Activation (n8n runs one poll at once; an error fails the activation). */
	async activate(activation: WorkflowActivateMode = 'activate') {
		const outcome = await this.run(activation, true);
		if (!outcome.error) this.saved = JSON.parse(JSON.stringify(this.workflow.staticData));
		return outcome;
	}

	/** A scheduled poll. */
	poll() {
		return this.run('activate', false);
	}

	/** n8n restarts: what was not saved is gone; the workflow is loaded and activated again. */
	restart() {
		this.load();
		return this.activate('init');
	}

	/** "Fetch Test Event" in the editor, as WorkflowExecute runs a poll node in manual mode. */
	async manual(): Promise<IDataObject[] | null> {
		const context = new PollContext(this.workflow, this.node, this.additionalData, 'manual', 'manual');
		const data = await this.trigger.poll.call(context);
		return data ? data[0].map((i) => i.json) : null;
	}
}
