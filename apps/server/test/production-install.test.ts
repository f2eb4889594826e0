import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../src/features/analysis/testing';
import { findChromium } from '../src/lib/find-chromium';
import { startOpenAITestServer, type OpenAITestServer } from './openai-test-server';

/**
 * The image's server, built as the Dockerfile builds it: the manifests alone, then
 * `npm ci --omit=dev -w apps/server` (from the npm cache, offline first), then the sources the
 * final stage copies (.dockerignore leaves tests and node_modules out), started as its CMD does.
 * The copy lives outside the repository, so a package the server needs at run time but lists only
 * in devDependencies (or that only the repository's full install hoists) is missing here, and the
 * chat, the upload or the audit below fails.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dockerfile = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
const stages = dockerfile.split(/^(?=FROM )/m);
const stage = (name: string) =>
  stages.find((s) => new RegExp(`^FROM \\S+ AS ${name}$`, 'm').test(s))!;
const finalStage = stages.at(-1)!;
/** `COPY [--from=stage] <source…> <destination>` lines of a stage, continuation lines joined. */
const copies = (text: string) =>
  [...text.matchAll(/^COPY (?:--from=(\S+) )?(.+)$/gm)].map(([, from, args]) => {
    const parts = args!.trim().split(/\s+/);
    return { from, sources: parts.slice(0, -1), destination: parts.at(-1)! };
  });
const chromiumPath = findChromium(process.env.CHROMIUM_PATH, 'auto');

/** What .dockerignore keeps out of `COPY packages/contract` and `COPY apps/server`. */
const inImage = (source: string) => {
  const rel = path.relative(repoRoot, source);
  const base = path.basename(source);
  return !(
    base === 'node_modules' ||
    base === 'dist' ||
    base === 'data' ||
    rel === 'apps/server/test' ||
    /\.test\.tsx?$/.test(base)
  );
};

/**
 * better-sqlite3 as the repository's own install built it (compiled, where no prebuilt binary can
 * be fetched), packed as a prebuilt binary in a folder that prebuild-install looks in first
 * (`npm_config_better_sqlite3_local_prebuilds`): the image's install unpacks and loads it instead
 * of compiling the same version again (minutes on two cores). Without one, or if it does not load,
 * the install compiles as before.
 */
function localPrebuilds(): Record<string, string> {
  const pkgDir = path.join(repoRoot, 'node_modules/better-sqlite3');
  const binary = 'build/Release/better_sqlite3.node';
  if (!existsSync(path.join(pkgDir, binary))) return {};
  const { version } = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'inkwell-prebuilds-'));
  // prebuild-install's file name: {name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  execFileSync('tar', ['-czf', path.join(dir, name), '-C', pkgDir, binary]);
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/**
 * The server-deps stage: the manifests stage's files, then its `npm ci` (offline first: the npm
 * cache the repository's own install filled; better-sqlite3 from the repository's build, above).
 * It is kept between runs (of any checkout), keyed by the manifests and the command: a change to
 * any dependency list installs afresh.
 */
async function serverDeps(): Promise<string> {
  const install = /^RUN (npm ci --omit=dev -w apps\/server[^&\n]*)/m.exec(
    stage('server-deps'),
  )?.[1];
  if (!install)
    throw new Error('the Dockerfile no longer installs with npm ci --omit=dev -w apps/server');
  const manifests = copies(stage('manifests')).flatMap((c) =>
    c.sources.map((source) =>
      path.join(c.destination.endsWith('/') ? c.destination : '', path.basename(source)),
    ),
  );
  const key = createHash('sha256').update(install);
  for (const file of manifests) key.update(file).update(readFileSync(path.join(repoRoot, file)));
  const dir = path.join(tmpdir(), `inkwell-image-deps-${key.digest('hex').slice(0, 16)}`);
  if (existsSync(path.join(dir, '.installed'))) return dir;
  rmSync(dir, { recursive: true, force: true });
  for (const file of manifests) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(repoRoot, file), path.join(dir, file));
  }
  const [command, ...args] = `${install.trim()} --prefer-offline`.split(/\s+/);
  const prebuilds = localPrebuilds();
  // Not spawnSync: the test worker must keep answering its runner while it installs.
  const child = spawn(command!, args, {
    cwd: dir,
    env: { ...process.env, NODE_ENV: 'production', ...prebuilds },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (const folder of Object.values(prebuilds)) rmSync(folder, { recursive: true, force: true });
  if (code !== 0) throw new Error(`npm ci failed (${code}):\n${output}`);
  writeFileSync(path.join(dir, '.installed'), install);
  return dir;
}

/** The final stage's file system: its COPY lines, in order (`--from=server-deps` hard-linked). */
function finalImage(deps: string, app: string) {
  for (const { from, sources, destination } of copies(finalStage)) {
    for (const source of sources) {
      const target = path.join(app, destination === './' ? path.basename(source) : destination);
      mkdirSync(path.dirname(target), { recursive: true });
      if (from === 'server-deps') {
        const inStage = path.join(deps, path.relative('/app', source));
        if (!existsSync(inStage)) throw new Error(`${source} is not in the server-deps stage`);
        execFileSync('cp', ['-al', inStage, target]);
      } else if (from === 'web') {
        const built = path.join(repoRoot, 'apps/web/dist');
        if (existsSync(built)) cpSync(built, target, { recursive: true });
      } else {
        cpSync(path.join(repoRoot, source), target, { recursive: true, filter: inImage });
      }
    }
  }
}

/** The server's address once it says it listens (the hook's own time limit bounds the wait). */
function waitForListening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = output.match(/running at (http:\/\/[^/\s]+)/);
      if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
    });
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}

describe('the server from a production install, as the image builds it', () => {
  const app = mkdtempSync(path.join(tmpdir(), 'inkwell-image-'));
  const dataDir = path.join(app, 'data-volume');
  let ai: OpenAITestServer;
  let pages: FixtureServer;
  let server: ChildProcess | undefined;
  let url = '';
  let token = '';

  beforeAll(async () => {
    finalImage(await serverDeps(), app);
    ai = await startOpenAITestServer();
    pages = await startFixtureServer();
    // The image's CMD, from its WORKDIR.
    const [command, ...args] = JSON.parse(/^CMD (\[.*\])$/m.exec(finalStage)![1]!) as string[];
    expect(command).toBe('node');
    server = spawn(process.execPath, args, {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        AI_BASE_URL: ai.url,
        AI_MODEL: 'test-model',
        MODEL_DOWNLOAD: 'off',
        FETCH_ALLOW_HOSTS: '127.0.0.1',
        ...(chromiumPath ? { CHROMIUM_PATH: chromiumPath } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    url = await waitForListening(server);
    const registered = await fetch(`${url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'operator@example.com', password: 'correct horse battery' }),
    });
    expect(registered.status).toBe(201);
    token = ((await registered.json()) as { access_token: string }).access_token;
  }, 2_700_000); // npm ci compiles better-sqlite3 where no prebuilt binary can be fetched

  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    await ai?.close();
    await pages?.close();
    rmSync(app, { recursive: true, force: true });
  });

  const auth = () => ({ authorization: `Bearer ${token}` });

  it('installed no development dependency', () => {
    for (const dev of ['vitest', 'smtp-server', 's3rver', 'autocannon'])
      expect(existsSync(path.join(app, 'node_modules', dev)), dev).toBe(false);
    expect(existsSync(path.join(app, 'node_modules/tsx')), 'tsx runs the server').toBe(true);
  });

  it('answers a chat through the model server', async () => {
    const form = new FormData();
    form.set('text', 'hello from the image');
    const res = await fetch(`${url}/api/chat`, { method: 'POST', headers: auth(), body: form });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { response: string }).response).toBe(
      'You said: hello from the image',
    );
  });

  it('takes an upload and gives it back byte for byte', async () => {
    const form = new FormData();
    const text = 'A plain paragraph of an uploaded note.\n'.repeat(50);
    form.append('file', new Blob([text]), 'notes.txt');
    const res = await fetch(`${url}/api/upload_file`, {
      method: 'POST',
      headers: auth(),
      body: form,
    });
    expect(res.status).toBe(201);
    const { file } = (await res.json()) as { file: { id: number; size: number } };
    expect(file.size).toBe(Buffer.byteLength(text));
    const download = await fetch(`${url}/api/download_file/${file.id}`, { headers: auth() });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(text);
  });

  it('audits a page, in Chromium where the machine has one', async () => {
    const res = await fetch(`${url}/api/accessibility-analysis`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${pages.origin}/low-contrast` }),
    });
    expect(res.status).toBe(200);
    const { accessibility_analysis: result } = (await res.json()) as {
      accessibility_analysis: { mode: string; violations: { id: string }[] };
    };
    expect(result.mode).toBe(chromiumPath ? 'chromium' : 'jsdom');
    if (chromiumPath) expect(result.violations.map((v) => v.id)).toContain('color-contrast');
  });
});
