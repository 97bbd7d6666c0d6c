// The mutation cache: every mutant's result for the committed code and tests, committed gzipped
// (test/mutation/incremental.json.gz, 2 MB) instead of as Stryker's 50 MB JSON (issue #53: no
// committed file over 10 MB). Stryker reads and writes the JSON in reports/mutation/ (git-ignored);
// run.mjs unpacks it before a run and packs it after.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const PACKED = path.join('test', 'mutation', 'incremental.json.gz');
export const UNPACKED = path.join('reports', 'mutation', 'incremental.json');

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : -1);

/** A report, from JSON or gzipped JSON (by the name's end). */
export function readReport(file) {
	const bytes = fs.readFileSync(file);
	return JSON.parse((file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8'));
}

/** Writes a report as JSON or gzipped JSON (by the name's end); the same report gives the same bytes. */
export function writeReport(file, report) {
	const json = Buffer.from(JSON.stringify(report));
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(`${file}.tmp`, file.endsWith('.gz') ? zlib.gzipSync(json, { level: 9 }) : json);
	fs.renameSync(`${file}.tmp`, file);
}

/** The committed cache as Stryker's file, unless the unpacked one is newer (a run since, not packed yet). */
export function unpack() {
	if (!fs.existsSync(PACKED) || mtime(UNPACKED) >= mtime(PACKED)) return;
	writeReport(UNPACKED, readReport(PACKED));
}

/** Stryker's file after a run, into the committed cache. */
export function pack() {
	if (fs.existsSync(UNPACKED)) writeReport(PACKED, readReport(UNPACKED));
}
