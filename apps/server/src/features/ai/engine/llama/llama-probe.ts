import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Loads a model once in a child process before the server loads it in-process: llama.cpp aborts
 * the process on some malformed models, and a crashed child costs nothing. A file that loaded is
 * remembered (by path, size and modification time) in DATA_DIR/models/verified.json.
 */
const PROBE_SCRIPT = fileURLToPath(new URL('./llama-probe-child.mjs', import.meta.url));
const PROBE_TIMEOUT_MS = 10 * 60_000;

export async function probeModel(
  file: string,
  gpu: false | string,
  dataDir: string,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const { size, mtimeMs } = statSync(file);
  const key = `${path.resolve(file)}|${size}|${Math.floor(mtimeMs)}|${String(gpu)}`;
  const cacheFile = path.join(dataDir, 'models', 'verified.json');
  const verified = readCache(cacheFile);
  if (verified.includes(key)) return { ok: true };

  const result = await new Promise<{ ok: true } | { ok: false; error: string }>((resolve) => {
    execFile(
      process.execPath,
      [PROBE_SCRIPT, file, String(gpu)],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
      (err, stdout, stderr) => {
        if (!err && stdout.includes('ok')) return resolve({ ok: true });
        const lastLine = stderr.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
        const how = err && 'signal' in err && err.signal ? `crashed with ${err.signal}` : 'failed';
        resolve({
          ok: false,
          error: `llama.cpp ${how}${lastLine ? `: ${lastLine.slice(0, 300)}` : ''}`,
        });
      },
    );
  });
  if (result.ok) {
    try {
      mkdirSync(path.dirname(cacheFile), { recursive: true });
      writeFileSync(cacheFile, JSON.stringify([...verified.slice(-20), key]));
    } catch {
      // A read-only DATA_DIR only means probing again next start.
    }
  }
  return result;
}

function readCache(file: string): string[] {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
