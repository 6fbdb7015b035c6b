/**
 * `npm run dev`: Next's dev server on http://localhost:8085/web/ (DEV_PORT; hot reload) in front of
 * the companion server on port 8080 (PORT) (`tsx watch`, restarted when server/ or lib/contract/ change), whose
 * API and room WebSocket next.config.mjs proxies. With DEV_API_ORIGIN set (another SyncTV server),
 * only Next's dev server starts. Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';

const children = [];
const run = (name, command, args, env = {}) => {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${name} stopped (${signal ?? `exit code ${code}`}); stopping the others.`);
    stop(code ?? 1);
  });
  children.push(child);
};

let stopping = false;
function stop(code) {
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  process.exitCode = code;
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const apiPort = process.env.PORT || '8080';
if (!process.env.DEV_API_ORIGIN) {
  run('companion server', 'npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { PORT: apiPort, LOG_LEVEL: process.env.LOG_LEVEL || 'info' });
}
run('next dev', 'npx', ['next', 'dev', '--port', process.env.DEV_PORT || '8085'], {
  DEV_API_ORIGIN: process.env.DEV_API_ORIGIN || `http://127.0.0.1:${apiPort}`,
});
