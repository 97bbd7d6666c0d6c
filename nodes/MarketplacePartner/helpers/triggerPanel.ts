// What the editor says about the webhook trigger's two URLs, who registers them and how a test event
// gets sent. n8n shows these strings as written: neither the trigger panel nor a notice evaluates
// expressions, and the editor never sees the credential's Base URL, so the demo's page is named as
// the demo's rather than shown only against the local sandbox. The panel's texts show while the
// node is not listening; while it listens, n8n shows its own "Go to … and create an event".
import type { TriggerPanelDefinition } from 'n8n-workflow';

// Stryker disable all: n8n UI texts for the editor; see test/mutation/SURVIVORS.md

/** The sandbox's test event page (sandbox/testEventPage.js), at the address `npm start` gives it. */
const DEMO_PAGE = '<a href="http://127.0.0.1:8787/" target="_blank">http://127.0.0.1:8787/</a>';
const DEMO = `Trying the local demo from <code>npm start</code>? Send one from ${DEMO_PAGE}.`;

/** The notice at the top of the node's parameters. */
export const REGISTRATION_NOTICE =
	'The marketplace has no API to register webhooks: give this node\'s <b>Production URL</b> and your Client ID to the marketplace operator, who registers it for your app. To see an event while you build: first copy the <b>Test URL</b> (<b>Webhook URLs</b> › <b>Test URL</b>, below), then click <b>Execute step</b>, then have a test event sent to that URL within 2 minutes. Every delivery is verified with the credential\'s Webhook Secret before the workflow runs.';

export const TRIGGER_PANEL: TriggerPanelDefinition = {
	// Shown as plain text: n8n does not render HTML in the header.
	header: 'Ask the marketplace operator for a test event',
	activationHint: {
		inactive: `First copy this node's <b>Test URL</b> (<b>Webhook URLs</b> › <b>Test URL</b>, in its parameters: while n8n listens, the URLs are out of reach), then click <b>Execute step</b> and, within 2 minutes, have a test event sent to it. ${DEMO}`,
		active: `The workflow is published (n8n 1.x: active): every event the operator sends to the <b>Production URL</b> runs it, in the executions list. To see one here, copy the <b>Test URL</b> first, then click <b>Execute step</b> and have a test event sent to it within 2 minutes. ${DEMO}`,
	},
	executionsHelp:
		'The marketplace has no API for webhooks: its operator does it. This node has two URLs (<b>Webhook URLs</b>, in its parameters).<br /><br />' +
		'<b>Test URL</b>, for building the workflow: it listens only for 2 minutes after you click <b>Execute step</b> (or <b>Test this trigger</b>), and the event shows up here, in the editor. Copy it before you click: while n8n listens, the URLs are out of reach. Then have a test event sent to it.<br /><br />' +
		'<b>Production URL</b>, for the finished workflow: give it to the operator, with your Client ID, to register for your app. It receives events once the workflow is published (n8n 1.x: active); those runs show up in the <a data-key="executions">executions list</a>, not in the editor.<br /><br />' +
		`Every delivery is verified with the credential's Webhook Secret before the workflow runs. ${DEMO}`,
};

// Stryker restore all
