// Jest's runtime with a code cache. Jest compiles every module afresh for every test file (its
// sandbox keeps each file's modules apart), and the files that run workflows load some 2,000
// modules of n8n-workflow and n8n-core each. A worker keeps V8's code cache of each module it has
// compiled and hands it to the next compile of the same source: the modules still load and run
// afresh in every file's sandbox, only their parsing is not done again.
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

const compileFunction = vm.compileFunction;
/** filename → the source compiled and V8's cache of it. */
const codeCache = new Map();

vm.compileFunction = function compileWithCache(source, params, options = {}) {
	const { filename } = options;
	if (!filename || options.cachedData || options.produceCachedData) return compileFunction(source, params, options);
	const held = codeCache.get(filename);
	if (held?.source === source) {
		const fn = compileFunction(source, params, { ...options, cachedData: held.data });
		if (!fn.cachedDataRejected) return fn;
	}
	const fn = compileFunction(source, params, { ...options, produceCachedData: true });
	if (fn.cachedDataProduced) codeCache.set(filename, { source, data: fn.cachedData });
	return fn;
};

module.exports = Runtime;
