// Where tests find the repository and its fixtures, from the transpiled file's place in out/.
import { join } from 'node:path';

/** The repository root (this file runs as out/test/support/paths.js). */
export const repoRoot = join(__dirname, '../../..');
/** The plain transpile of src/, test/ and bench/ (`node esbuild.mjs --with-tests`). */
export const outRoot = join(repoRoot, 'out');
/** Real agents' ACP traffic, recorded with a fake model server (the one copy in the repo). */
export const transcriptsDir = join(repoRoot, 'test/fixtures/acp-transcripts');
