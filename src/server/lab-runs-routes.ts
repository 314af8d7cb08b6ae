import type { FastifyInstance } from 'fastify';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { requireStaff, type CallerDeps } from './auth/callers.js';
import { HttpError } from './http-errors.js';
import { parseInput } from './http-schemas.js';
import { routeDocs } from './route-docs.js';

/** How deep below the runs folder runs and reports are looked for (`runs/default/rule`: 2). */
const MAX_DEPTH = 3;
const SEGMENT = /^[A-Za-z0-9._-]{1,100}$/;

/** One run folder as the console lists it. */
interface LabRun {
  path: string;
  domain: string | null;
  agent: string | null;
  split: string | null;
  startedAt: string | null;
  gitSha: string | null;
  episodes: number | null;
}

const RunJsonSchema = z.looseObject({
  started_at: z.string().optional(),
  git_sha: z.string().nullable().optional(),
  config: z.looseObject({ domain: z.string().optional(), agent: z.string().optional(), split: z.string().optional() }).optional(),
});

/** Run folders (with run.json) and reports (report.html) below `root`, never following links. */
function scan(root: string): { runs: LabRun[]; reports: Array<{ path: string; modifiedAt: string }> } {
  const runs: LabRun[] = [];
  const reports: Array<{ path: string; modifiedAt: string }> = [];
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    const path = relative(root, dir).split(sep).join('/');
    if (names.includes('report.html'))
      reports.push({ path: path || '.', modifiedAt: statSync(join(dir, 'report.html')).mtime.toISOString() });
    if (names.includes('run.json')) {
      let parsed: z.infer<typeof RunJsonSchema> | null = null;
      try {
        parsed = RunJsonSchema.parse(JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')));
      } catch {
        parsed = null;
      }
      // The start time is in environment.json (runs of this version) or run.json (older runs).
      let started: string | null = parsed?.started_at ?? null;
      try {
        const environment = z
          .looseObject({ started_at: z.string() })
          .safeParse(JSON.parse(readFileSync(join(dir, 'environment.json'), 'utf8')));
        if (environment.success) started = environment.data.started_at;
      } catch {
        // No environment.json: an older run.
      }
      let episodes: number | null = null;
      try {
        episodes = readFileSync(join(dir, 'trajectories.jsonl'), 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '').length;
      } catch {
        episodes = null;
      }
      runs.push({
        path: path || '.',
        domain: parsed?.config?.domain ?? null,
        agent: parsed?.config?.agent ?? null,
        split: parsed?.config?.split ?? null,
        startedAt: started,
        gitSha: parsed?.git_sha ?? null,
        episodes,
      });
    }
    if (depth >= MAX_DEPTH) return;
    for (const name of names) {
      if (!SEGMENT.test(name) || name.startsWith('.')) continue;
      const child = join(dir, name);
      try {
        if (lstatSync(child).isDirectory()) walk(child, depth + 1);
      } catch {
        // A folder removed while listing: skip it.
      }
    }
  };
  walk(root, 0);
  return { runs, reports };
}

const ReportQuerySchema = z.strictObject({
  path: z
    .string()
    .max(400)
    .refine((p) => p === '.' || p.split('/').every((s) => SEGMENT.test(s) && s !== '..' && s !== '.'), {
      message: 'a report path is folder names joined by /',
    }),
});

/**
 * The lab's runs for supervisors: the run folders and reports below the folder `baton serve` was
 * pointed at (`--runs`, default `runs/`), and each report's page. A report is served under a
 * sandboxing Content-Security-Policy (its own scripts run in an opaque origin: they can reach
 * neither the console's session nor its API).
 */
export function registerLabRunsRoutes(app: FastifyInstance, options: { runsDir: string | null; auth: CallerDeps }): void {
  const root = options.runsDir === null ? null : resolve(options.runsDir);
  app.get('/v1/lab/runs', routeDocs("The lab's run folders and reports below the server's runs folder", 'supervisor'), async (request) => {
    await requireStaff(request, options.auth, 'supervisor');
    // The folder by its name only: no path of the server's machine leaves it.
    const runsDir = root === null ? null : basename(root);
    if (root === null || !existsSync(root)) return { runsDir, runs: [], reports: [] };
    return { runsDir, ...scan(root) };
  });
  app.get(
    '/v1/lab/report',
    routeDocs('One report of the lab, as a page (sandboxed)', 'supervisor', { querystring: ReportQuerySchema }),
    async (request, reply) => {
      await requireStaff(request, options.auth, 'supervisor');
      const { path } = parseInput(ReportQuerySchema, request.query, 'query');
      if (root === null) throw new HttpError(404, 'not_found', 'this server was started without a runs folder');
      const file = resolve(root, path, 'report.html');
      if (!file.startsWith(root + sep) || !existsSync(file) || !lstatSync(file).isFile())
        throw new HttpError(404, 'not_found', `there is no report at ${path}`);
      return reply
        .type('text/html; charset=utf-8')
        .header(
          'content-security-policy',
          "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:",
        )
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(readFileSync(file));
    },
  );
}
