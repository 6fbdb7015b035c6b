/**
 * ffmpeg and ffprobe die with the server (docs/transcode.md "Limits"): a conversion paused by its
 * throttle (SIGSTOP) notices nothing, so a server killed with SIGKILL would leave it stopped forever.
 *
 * - Each is started under util-linux's `setpriv --pdeathsig KILL` where it is installed (every
 *   Debian and most Linux systems): the kernel kills it when the server's process goes, however it
 *   goes. setpriv execs the tool in place, so the pid, the signals and the pipes are the tool's.
 * - A restart also kills what a server that is gone left running in its conversion folder
 *   (`reapToolsUnder`), for machines without setpriv.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

let setpriv: boolean | null = null;

/** Whether setpriv can set the parent-death signal here (asked once). */
function hasSetpriv(): boolean {
  setpriv ??= process.platform === 'linux' && spawnSync('setpriv', ['--pdeathsig', 'KILL', 'true'], { stdio: 'ignore' }).status === 0;
  return setpriv;
}

/** What `isExecutable` found, by command: asked once, not at every probe and run. */
const executables = new Map<string, boolean>();

/** Whether `command` (a path, or a name looked up on PATH) is an executable file here. */
function isExecutable(command: string): boolean {
  let found = executables.get(command);
  if (found === undefined) {
    found = findExecutable(command);
    executables.set(command, found);
  }
  return found;
}

function findExecutable(command: string): boolean {
  const candidates = command.includes('/') ? [command] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  return candidates.some((candidate) => {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/**
 * Spawns `command` (ffmpeg, ffprobe) with `args`, killed by the kernel when this process ends (see
 * the module comment). A command that is not there is spawned as it is, so that it fails as a
 * missing program does (the child's `error` event, ENOENT), not as setpriv's exit code.
 */
export function spawnTool(command: string, args: readonly string[], options: SpawnOptions): ChildProcess {
  return hasSetpriv() && isExecutable(command) ? spawn('setpriv', ['--pdeathsig', 'KILL', command, ...args], options) : spawn(command, [...args], options);
}

/**
 * Kills (SIGKILL) every ffmpeg or ffprobe of this machine whose arguments name a path under `dir`
 * (a conversion folder of a process that is gone), read from /proc; nothing where there is no /proc.
 * Returns how many it killed.
 */
export function reapToolsUnder(dir: string): number {
  let pids: string[] = [];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  const prefix = `${path.resolve(dir)}${path.sep}`;
  let killed = 0;
  for (const pid of pids) {
    let args: string[];
    try {
      args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\u0000');
    } catch {
      continue;
    }
    if (!/^ff(mpeg|probe)$/.test(path.basename(args[0] ?? '')) || !args.some((arg) => arg.startsWith(prefix))) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
      killed += 1;
    } catch {
      // Gone in the meantime, or not ours to kill.
    }
  }
  return killed;
}
