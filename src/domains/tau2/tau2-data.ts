import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { TAU2_COMMIT, TAU2_MANIFEST, type Tau2ManifestEntry } from './tau2-manifest.js';

/** Where upstream files are downloaded from: `${base}/${commit}/${path}`. */
export const TAU2_DOWNLOAD_BASE = 'https://raw.githubusercontent.com/sierra-research/tau2-bench';

/** Why tau2-bench data could not be had; the message says what to set or fix. */
export class Tau2DataError extends Error {
  constructor(
    readonly code: 'missing_file' | 'checksum' | 'unavailable',
    message: string,
  ) {
    super(message);
    this.name = 'Tau2DataError';
  }
}

/** Options of {@link resolveTau2Data}. */
export interface Tau2DataOptions {
  /** A folder with tau2-bench's data (`--tau2-dir`); wins over `BATON_TAU2_DIR`. */
  dir?: string;
  env?: NodeJS.ProcessEnv;
  /** Where downloads are kept (default: `$XDG_CACHE_HOME/baton/tau2` or `~/.cache/baton/tau2`). */
  cacheDir?: string;
  baseUrl?: string;
  fetch?: typeof fetch;
}

/** Verified tau2-bench data: where it is, and how it was found. */
export interface Tau2Data {
  dir: string;
  source: 'folder' | 'cache' | 'download';
  /** The pinned upstream commit every result should name. */
  commit: string;
  read(file: string): string;
}

const WHAT_TO_SET =
  'Set --tau2-dir or BATON_TAU2_DIR to a folder holding tau2-bench data (airline/, retail/, user_simulator/ as in tau2-bench data/tau2/domains)';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function verify(dir: string, file: Tau2ManifestEntry, origin: string): void {
  const path = join(dir, file.file);
  if (!existsSync(path)) {
    throw new Tau2DataError('missing_file', `${origin} ${dir} has no ${file.file}. ${WHAT_TO_SET}.`);
  }
  const actual = sha256(readFileSync(path));
  if (actual !== file.sha256) {
    throw new Tau2DataError(
      'checksum',
      `${file.file} in ${dir} fails its checksum: sha256 ${actual}, expected ${file.sha256} (tau2-bench ${file.commit.slice(0, 7)}:${file.upstream}). ` +
        'The file is corrupted or from another version: replace it, or remove it to download it again.',
    );
  }
}

function defaultCacheDir(env: NodeJS.ProcessEnv): string {
  return join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'baton', 'tau2');
}

function data(dir: string, source: Tau2Data['source']): Tau2Data {
  return { dir, source, commit: TAU2_COMMIT, read: (file) => readFileSync(join(dir, file), 'utf8') };
}

/**
 * Finds tau2-bench's data and checks every file against the committed manifest: a folder given
 * by `dir` or `BATON_TAU2_DIR`; else the download cache; else downloads the pinned upstream
 * files into the cache (each checked before it is kept). Offline with nothing given, the error
 * says what to set. The project never redistributes the data.
 */
export async function resolveTau2Data(options: Tau2DataOptions = {}): Promise<Tau2Data> {
  const env = options.env ?? process.env;
  const given = options.dir ?? env['BATON_TAU2_DIR'];
  if (given) {
    const origin = options.dir ? 'The folder given by --tau2-dir,' : 'The folder in BATON_TAU2_DIR,';
    for (const file of TAU2_MANIFEST) verify(given, file, origin);
    return data(given, 'folder');
  }
  const cache = join(options.cacheDir ?? defaultCacheDir(env), TAU2_COMMIT.slice(0, 12));
  const missing: Tau2ManifestEntry[] = [];
  for (const file of TAU2_MANIFEST) {
    if (!existsSync(join(cache, file.file))) missing.push(file);
    else verify(cache, file, 'The download cache');
  }
  if (missing.length === 0) return data(cache, 'cache');
  const get = options.fetch ?? fetch;
  const base = options.baseUrl ?? TAU2_DOWNLOAD_BASE;
  for (const file of missing) {
    const url = `${base}/${file.commit}/${file.upstream}`;
    let bytes: Buffer;
    try {
      const response = await get(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      bytes = Buffer.from(await response.arrayBuffer());
    } catch (error) {
      throw new Tau2DataError('unavailable', `Could not download ${file.file} from ${url} (${(error as Error).message}). ${WHAT_TO_SET}.`);
    }
    const actual = sha256(bytes);
    if (actual !== file.sha256) {
      throw new Tau2DataError(
        'checksum',
        `The download of ${file.file} from ${url} fails its checksum: sha256 ${actual}, expected ${file.sha256}. Nothing was kept.`,
      );
    }
    const target = join(cache, file.file);
    mkdirSync(join(target, '..'), { recursive: true });
    // Written aside and renamed, so that a half-written file is never mistaken for a download.
    writeFileSync(`${target}.partial`, bytes);
    renameSync(`${target}.partial`, target);
  }
  return data(cache, 'download');
}

/** Removes the download cache (tests, and users who want the space back). */
export function clearTau2Cache(cacheDir: string): void {
  rmSync(join(cacheDir, TAU2_COMMIT.slice(0, 12)), { recursive: true, force: true });
}
