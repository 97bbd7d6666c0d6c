// n8n-core writes to its user folder; keep that out of the home directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'n8n-partner-test-'));
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
