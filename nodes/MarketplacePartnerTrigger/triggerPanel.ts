// What the editor says about the webhook trigger's two URLs, who registers them and how a test event
// gets sent. Every user reads these, so they name neither the local demo (its own page and the
// README do) nor n8n versions; the detail is in docs/webhook-trigger.md. The panel's texts show
// while the node is not listening; while it listens, n8n shows its own "Go to … and create an event".
import type { TriggerPanelDefinition } from 'n8n-workflow';

// Stryker disable all: n8n UI texts for the editor; see test/mutation/SURVIVORS.md

/** The notice at the top of the node's parameters. */
export const REGISTRATION_NOTICE =
	"Give this node's <b>Production URL</b> and your Client ID to the marketplace operator, who registers it. To test, copy the <b>Test URL</b> first, then click <b>Execute step</b>.";

export const TRIGGER_PANEL: TriggerPanelDefinition = {
	// Shown as plain text: n8n does not render HTML in the header.
	header: 'Ask the marketplace operator for a test event',
	activationHint: {
		inactive:
			"First copy this node's <b>Test URL</b> (under <b>Webhook URLs</b>: while n8n listens, it is out of reach), then click <b>Execute step</b> and have a test event sent to it within 2 minutes.",
		active:
			'The workflow is published: each event sent to the <b>Production URL</b> runs it, in the executions list. To see one here, copy the <b>Test URL</b> first, then click <b>Execute step</b>.',
	},
	executionsHelp:
		'The marketplace operator registers webhooks; this node has two URLs (<b>Webhook URLs</b>, in its parameters).<br /><br />' +
		'<b>Test URL</b>, for building: it listens for 2 minutes after you click <b>Execute step</b>, and the event shows up here. Copy it before you click, then have a test event sent to it.<br /><br />' +
		'<b>Production URL</b>, for the finished workflow: give it to the operator with your Client ID. Once the workflow is published, its runs show up in the <a data-key="executions">executions list</a>.<br /><br />' +
		"Every delivery is verified with the credential's Webhook Secret before the workflow runs.",
};

// Stryker restore all
