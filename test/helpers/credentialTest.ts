// Runs the credential's Test button the way n8n's credentials tester does: it finds the node that
// names a test for the credential type (`testedBy`) and calls that node's `methods.credentialTest`
// function with n8n-core's CredentialTestContext (n8n's tester lives in the n8n CLI package).
import { CredentialTestContext } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult, INodeType } from 'n8n-workflow';
import { MarketplacePartner } from '../../nodes/MarketplacePartner/MarketplacePartner.node';
import { MarketplacePartnerOrdersTrigger } from '../../nodes/MarketplacePartner/MarketplacePartnerOrdersTrigger.node';
import { MarketplacePartnerTrigger } from '../../nodes/MarketplacePartner/MarketplacePartnerTrigger.node';
import { createAdditionalData } from './n8n';

export const CREDENTIAL_TYPE = 'marketplacePartnerApi';

/** The test each node names for the credential; n8n takes the first node that names one. */
export function credentialTestsOf(nodeType: INodeType) {
	const testedBy = nodeType.description.credentials?.find((c) => c.name === CREDENTIAL_TYPE)?.testedBy;
	return { testedBy, test: typeof testedBy === 'string' ? nodeType.methods?.credentialTest?.[testedBy] : undefined };
}

/** New instances, as n8n loads them (made inside a test, so coverage links the nodes to it). */
export const nodeTypesUsingCredential = (): INodeType[] => [new MarketplacePartner(), new MarketplacePartnerTrigger(), new MarketplacePartnerOrdersTrigger()];

export async function testCredential(data: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
	const { test } = credentialTestsOf(nodeTypesUsingCredential()[0]);
	if (!test) throw new Error('no credential test: n8n would answer "No testing function found for this credential."');
	const context = new CredentialTestContext(createAdditionalData({ [CREDENTIAL_TYPE]: data }));
	return await test.call(context, { id: '1', name: 'test', type: CREDENTIAL_TYPE, data });
}
