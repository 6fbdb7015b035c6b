import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '..', '..');

/** Folder of the preview export (gitignored), next to `out/`. */
export const PREVIEW_EXPORT_DIR = path.join(repoRoot, 'out-preview');

/**
 * Builds the export a preview host serves: the same app with `NEXT_PUBLIC_API_ORIGIN=apiOrigin`,
 * written to `out-preview/` (NEXT_EXPORT_DIR, see next.config.mjs) so `out/` stays as it is.
 * The origin is the e2e companion server's, which only exists once the tests run (random port),
 * so the build happens here, once per worker, instead of before the run. About 15–30 s.
 * Then writes the engines' chunks into the early-start script (scripts/engine-chunks.mjs), moves the
 * inline head scripts in front of the stylesheet (scripts/head-scripts-first.mjs) and writes the
 * `<route>.html` aliases (scripts/html-aliases.mjs), as `npm run build` does.
 * Rejects with the build's output when `next build` or one of those fails.
 */
export async function buildPreviewExport(apiOrigin: string): Promise<string> {
  const nextBin = path.join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');
  const child = spawn(process.execPath, [nextBin, 'build'], {
    cwd: repoRoot,
    env: { ...process.env, NEXT_PUBLIC_API_ORIGIN: apiOrigin, NEXT_EXPORT_DIR: path.basename(PREVIEW_EXPORT_DIR), NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`preview build (NEXT_PUBLIC_API_ORIGIN=${apiOrigin}) failed with exit code ${code}:\n${output}`);
  for (const script of ['engine-chunks.mjs', 'head-scripts-first.mjs', 'html-aliases.mjs']) {
    const step = spawnSync(process.execPath, [path.join(repoRoot, 'scripts', script), PREVIEW_EXPORT_DIR], { cwd: repoRoot, encoding: 'utf8' });
    if (step.status !== 0) throw new Error(`scripts/${script} for the preview build failed:\n${step.stdout}${step.stderr}`);
  }
  return PREVIEW_EXPORT_DIR;
}
