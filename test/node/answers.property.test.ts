// Property-based tests of how the node reads the API's answers (issue 31): whatever the body is,
// JSON of any shape, any text, any bytes, nested or huge, the answer reader and the error parser
// give data or a clear error, never throw anything else, quote a bounded part of it, and keep a
// time budget per KB (test/helpers/budget.ts).
import fc from 'fast-check';
import type { INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { apiErrorFromResponse, readBody, readErrorBody } from '../../nodes/shared/transport/errors';
import { successData } from '../../nodes/shared/transport/answerReading';
import { Budget, HOSTILE_TEXTS, nested } from '../helpers/budget';
import { propertyRuns } from '../helpers/soak';
import { anyText, anyValue, bigText, byteText, INHERITED } from '../helpers/arbitraries';

const node = { id: '1', name: 'Marketplace Partner', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} } as INode;

/** The longest description: the longest what-to-do of API_ERRORS, a 100-character code and field, a 500-character message. */
const MAX_DESCRIPTION = 1000;

const sizeOf = (value: unknown) => (typeof value === 'string' ? value.length : 1024);

/** A body as a hostile API may write it: text, bytes, JSON text, or a value n8n already parsed. */
const anyBody = fc.oneof(
	anyText,
	byteText,
	fc.json(),
	anyValue,
	fc.record({ ok: fc.constantFrom(false, 0, '0'), error: fc.oneof(anyText, fc.record({ code: fc.oneof(anyText, fc.constantFrom(...INHERITED)), message: anyText, field: anyText })) }),
	fc.record({ errors: fc.array(fc.record({ code: anyText, message: anyText }), { maxLength: 3 }) }),
);

/** What an error built from an answer must be: a NodeApiError whose words are bounded and say the status. */
function expectClearError(error: unknown, statusCode: number) {
	expect(error).toBeInstanceOf(NodeApiError);
	const { message, description } = error as NodeApiError;
	expect(typeof message).toBe('string');
	expect(message.length).toBeGreaterThan(0);
	expect(message.length).toBeLessThanOrEqual(200);
	expect((description ?? '').length).toBeLessThanOrEqual(MAX_DESCRIPTION);
	expect((error as NodeApiError).httpCode).toBe(String(statusCode));
}

describe('the answer reader and the error parser, over any body', () => {
	test('readBody parses JSON text once to its value, keeps other text as it came, and never throws', () => {
		fc.assert(
			fc.property(fc.oneof(fc.json(), anyText, byteText), (raw) => {
				const { body } = readBody(raw);
				let value: unknown;
				try {
					value = JSON.parse(raw);
				} catch {
					value = raw;
				}
				expect(body).toEqual(value ?? raw);
			}),
			{ numRuns: propertyRuns(300) },
		);
	});

	test('every body reads as data or as an error whose code, message and field are bounded text; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyBody, (raw) => {
				const { result, error } = budget.check(sizeOf(raw), () => readErrorBody(raw));
				expect(error).toBeUndefined();
				for (const [part, limit] of [['code', 101], ['message', 501], ['field', 101]] as const) {
					const value = result![part];
					if (value !== undefined) {
						expect(typeof value).toBe('string');
						expect(value.length).toBeLessThanOrEqual(limit);
					}
				}
				// A success envelope is data; anything else is refused by the parser's words.
				const data = successData(readBody(raw).body);
				if (data) expect(typeof data).toBe('object');
			}),
			{ numRuns: propertyRuns(500) },
		);
		budget.expectKept();
	});

	test('an error built from any answer is a clear, bounded NodeApiError, never another throw; within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(anyBody, fc.integer({ min: 100, max: 599 }), (raw, statusCode) => {
				const { result, error } = budget.check(sizeOf(raw), () => apiErrorFromResponse(node, statusCode, raw));
				expect(error).toBeUndefined();
				expectClearError(result, statusCode);
			}),
			{ numRuns: propertyRuns(500) },
		);
		budget.expectKept();
	});

	test('big repeated patterns as the body, the message, the code or the field: within the budget per KB', () => {
		const budget = new Budget();
		fc.assert(
			fc.property(bigText, fc.constantFrom('body', 'message', 'code', 'field'), (text, where) => {
				const raw = where === 'body' ? text : JSON.stringify({ ok: false, error: { code: 'invalid_field', message: 'm', [where]: text } });
				const { result, error } = budget.check(raw.length, () => apiErrorFromResponse(node, 400, raw));
				expect(error).toBeUndefined();
				expectClearError(result, 400);
			}),
			{ numRuns: propertyRuns(40) },
		);
		budget.expectKept();
	});

	test.each(HOSTILE_TEXTS.map((text) => [`${JSON.stringify(text.slice(0, 24))}… (${text.length} chars)`, text]))(
		'the hostile text %s as body and as message: a clear error within the budget',
		(_, text) => {
			const budget = new Budget();
			for (const raw of [text, { ok: false, error: { code: 'invalid_parameter', message: text } }, { message: text, error: text }]) {
				const { result, error } = budget.check(text.length, () => apiErrorFromResponse(node, 422, raw));
				expect(error).toBeUndefined();
				expectClearError(result, 422);
			}
			budget.expectKept();
		},
	);

	test('a value nested 200,000 deep, as n8n may hand over a parsed body: a clear error, its start shown, within the budget', () => {
		const budget = new Budget();
		const { result, error } = budget.check(200_000 * 12, () => apiErrorFromResponse(node, 502, nested(200_000)));
		expect(error).toBeUndefined();
		expectClearError(result, 502);
		expect((result as NodeApiError).description).toMatch(/^Check the credential's Base URL\. Response started with: \[\{"error":\[\{"error":/);
		budget.expectKept();
	});
});
